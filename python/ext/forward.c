/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * shakerand.Random's methods that only pass a call on to its engine
 * (`return self._engine.random()`), in C: a method written in Python costs
 * a frame, a lookup of the engine's bound method and a second call, about
 * twice the time of random.Random().random() (BENCHMARKS.md).
 *
 * Each is a descriptor of the class, as random.Random's own methods are,
 * so everything that works on a Python method still does: mock.patch of
 * the class or an instance, a subclass's override and super(), keyword
 * arguments, inspect.signature. The interpreter calls it without making a
 * bound method (Py_TPFLAGS_METHOD_DESCRIPTOR). self._engine is read at
 * every call, so a subclass or a copy that replaces it is followed; an
 * _engine that is not an Engine gets the method called by name, as the
 * Python method did.
 *
 * The class keeps _engine in a slot (__slots__): CPython's lookup of an
 * attribute from C costs more than the rest of random() together (about
 * 270 instructions of 670, callgrind), so on an instance of exactly the
 * class the slot is read where it lies, for as long as the class still
 * has that slot's descriptor as its _engine: the class's version tag,
 * which any change to the class renews, says so. Otherwise (a subclass, a
 * class changed since, a free-threaded build, where another thread may
 * replace the slot's object while it is read) the attribute is looked up.
 */
#include "forward.h"

#include "engine_object.h"

#include <stddef.h>
#include <string.h>
#include <structmember.h>

/* What a forwarded method is: its name (and the engine's method called),
 * whether it takes one argument (its keyword name), and its docstring with
 * CPython's text signature first. */
static const struct forwarded {
    const char *name;
    const char *engine_name;
    const char *arg; /* NULL: no argument */
    const char *doc;
} forwarded[] = {
    {"random", "random", NULL,
     "random($self, /)\n--\n\nA float in [0, 1): the next word's top 53 bits times 2**-53."},
    {"getrandbits", "getrandbits", "k",
     "getrandbits($self, /, k)\n--\n\nAn int of *k* random bits: for k <= 64 the top k bits of "
     "the next word; beyond, ceil(k/64) words, the first the least significant."},
    {"randbytes", "randbytes", "n",
     "randbytes($self, /, n)\n--\n\nThe next *n* bytes of the engine's stream."},
    {"_randbelow", "randbelow", "n",
     "_randbelow($self, /, n)\n--\n\nAn int in [0, n) (0 for n == 0): random.Random's hook."},
};

typedef struct {
    PyObject_HEAD const struct forwarded *what;
    PyTypeObject *owner; /* the class it is a method of */
    PyObject *name, *qualname, *arg_name;
    PyObject *engine_name; /* the Engine's method, called by name on an _engine of another type */
    PyObject *engine_attr; /* "_engine" */
    PyObject *slot;        /* owner's own descriptor of _engine's slot, or NULL */
    Py_ssize_t slot_offset;
    /* owner's version tag when slot was last found to be its _engine; 0: none */
    unsigned int slot_version;
    PyCFunction call; /* the Engine's method of that name (METH_NOARGS or METH_O) */
    vectorcallfunc vectorcall;
} ForwardObject;

/* Whether the slot is read where it lies: from CPython 3.11, whose
 * version tags are never given twice (3.9 and 3.10 count again from 1
 * after sys._clear_type_cache(), so a changed class could get its old tag
 * back); not where another thread may replace the slot's object while it
 * is read (a free-threaded build). */
#if PY_VERSION_HEX >= 0x030B0000 && !defined(Py_GIL_DISABLED)
#define SLOT_READ 1

/* The class's version tag, 0 while it has none that is valid. */
static unsigned int version_of(PyTypeObject *type)
{
#if PY_VERSION_HEX < 0x030C0000
    if (!PyType_HasFeature(type, Py_TPFLAGS_VALID_VERSION_TAG))
        return 0;
#endif
    return type->tp_version_tag;
}
#else
#define SLOT_READ 0
#endif

/* self._engine (a new reference), from the slot where that is the same. */
static PyObject *engine_of(ForwardObject *f, PyObject *self)
{
#if SLOT_READ
    /* The class's own attribute lookup too: a __getattribute__ of its own
     * would be passed by. */
    const int exact =
        Py_IS_TYPE(self, f->owner) && f->owner->tp_getattro == PyObject_GenericGetAttr;
    if (exact && f->slot_version != 0 && version_of(f->owner) == f->slot_version) {
        PyObject *engine = *(PyObject **)((char *)self + f->slot_offset);
        if (engine != NULL) {
            Py_INCREF(engine);
            return engine;
        }
    }
#endif
    PyObject *engine = PyObject_GetAttr(self, f->engine_attr);
#if SLOT_READ
    /* The lookup gave the class a valid version tag; the slot is _engine
     * again if the class's own dict still has its descriptor (the class
     * comes first in its own MRO). */
    if (engine != NULL && exact && f->slot != NULL) {
        const PyObject *own = PyDict_GetItemWithError(f->owner->tp_dict, f->engine_attr);
        if (own == f->slot) {
            f->slot_version = version_of(f->owner);
        } else if (own == NULL && PyErr_Occurred()) {
            Py_DECREF(engine);
            return NULL;
        }
    }
#endif
    return engine;
}

static PyObject *forward_vectorcall(ForwardObject *f, PyObject *const *args, size_t nargsf,
                                    PyObject *kwnames)
{
    const Py_ssize_t nargs = PyVectorcall_NARGS(nargsf);
    const Py_ssize_t nkw = kwnames == NULL ? 0 : PyTuple_GET_SIZE(kwnames);
    if (nargs < 1) {
        PyErr_Format(PyExc_TypeError, "unbound method %U() needs an argument", f->qualname);
        return NULL;
    }
    PyObject *self = args[0];
    if (!PyObject_TypeCheck(self, f->owner)) {
        PyErr_Format(PyExc_TypeError,
                     "descriptor '%U' for '%.100s' objects doesn't apply to a "
                     "'%.100s' object",
                     f->name, f->owner->tp_name, Py_TYPE(self)->tp_name);
        return NULL;
    }
    const Py_ssize_t wanted = f->what->arg != NULL ? 1 : 0, given = nargs - 1 + nkw;
    if (given != wanted) {
        PyErr_Format(PyExc_TypeError, "%U() takes %s (%zd given)", f->qualname,
                     wanted ? "exactly one argument" : "no arguments", given);
        return NULL;
    }
    if (nkw == 1) {
        PyObject *key = PyTuple_GET_ITEM(kwnames, 0);
        const int same = PyObject_RichCompareBool(key, f->arg_name, Py_EQ);
        if (same <= 0) {
            if (same == 0)
                PyErr_Format(PyExc_TypeError, "%U() got an unexpected keyword argument '%U'",
                             f->qualname, key);
            return NULL;
        }
    }
    PyObject *arg = NULL;
    if (wanted)
        arg = args[1];
    PyObject *engine = engine_of(f, self);
    if (engine == NULL)
        return NULL;
    PyObject *result;
    if (pyext_is_engine(engine)) {
        result = f->call(engine, arg);
    } else {
        PyObject *call[2] = {engine, arg};
        result = PyObject_VectorcallMethod(f->engine_name, call, (size_t)(1 + wanted), NULL);
    }
    Py_DECREF(engine);
    return result;
}

/* Looked up on the class: the descriptor itself; on an instance: a bound
 * method (the interpreter's r.method() skips this). */
static PyObject *forward_get(PyObject *self, PyObject *obj, PyObject *type)
{
    (void)type;
    if (obj == NULL || obj == Py_None) {
        Py_INCREF(self);
        return self;
    }
    return PyMethod_New(self, obj);
}

static PyObject *forward_doc(ForwardObject *f, void *unused)
{
    (void)unused;
    /* The docstring after the text signature's "--\n\n". */
    return PyUnicode_FromString(strstr(f->what->doc, "--\n\n") + 4);
}

static PyObject *forward_text_signature(ForwardObject *f, void *unused)
{
    (void)unused;
    const char *doc = f->what->doc;
    const char *open = strchr(doc, '('), *end = strstr(doc, ")\n--");
    return PyUnicode_FromStringAndSize(open, end + 1 - open);
}

/* Pickled as getattr(class, name), as CPython's method descriptors are. */
static PyObject *forward_reduce(ForwardObject *f, PyObject *unused)
{
    (void)unused;
    PyObject *builtins = PyEval_GetBuiltins(); /* borrowed */
    PyObject *get = builtins != NULL ? PyDict_GetItemString(builtins, "getattr") : NULL;
    if (get == NULL) {
        if (!PyErr_Occurred())
            PyErr_SetString(PyExc_RuntimeError, "no builtin getattr");
        return NULL;
    }
    return Py_BuildValue("O(OO)", get, (PyObject *)f->owner, f->name);
}

static PyMethodDef forward_methods[] = {
    {"__reduce__", (PyCFunction)forward_reduce, METH_NOARGS, NULL},
    {NULL, NULL, 0, NULL},
};

static PyObject *forward_repr(ForwardObject *f)
{
    return PyUnicode_FromFormat("<method '%U' of '%.100s' objects>", f->name, f->owner->tp_name);
}

static int forward_traverse(ForwardObject *f, visitproc visit, void *arg)
{
    Py_VISIT(Py_TYPE(f));
    Py_VISIT(f->owner);
    Py_VISIT(f->slot);
    return 0;
}

/* owner is kept (a call or repr during the collector's teardown reads
 * it): clearing the class's dict breaks the cycle. */
static int forward_clear(ForwardObject *f)
{
    Py_CLEAR(f->slot);
    return 0;
}

static void forward_dealloc(ForwardObject *f)
{
    PyTypeObject *type = Py_TYPE(f);
    PyObject_GC_UnTrack(f);
    (void)forward_clear(f);
    Py_XDECREF(f->owner);
    Py_XDECREF(f->name);
    Py_XDECREF(f->qualname);
    Py_XDECREF(f->arg_name);
    Py_XDECREF(f->engine_name);
    Py_XDECREF(f->engine_attr);
    type->tp_free((PyObject *)f);
    Py_DECREF(type);
}

static PyMemberDef forward_members[] = {
    {"__name__", T_OBJECT, offsetof(ForwardObject, name), READONLY, NULL},
    {"__qualname__", T_OBJECT, offsetof(ForwardObject, qualname), READONLY, NULL},
    {"__objclass__", T_OBJECT, offsetof(ForwardObject, owner), READONLY, NULL},
    {"__vectorcalloffset__", T_PYSSIZET, offsetof(ForwardObject, vectorcall), READONLY, NULL},
    {NULL, 0, 0, 0, NULL},
};

static PyGetSetDef forward_getset[] = {
    {"__doc__", (getter)forward_doc, NULL, NULL, NULL},
    {"__text_signature__", (getter)forward_text_signature, NULL, NULL, NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

static PyType_Slot forward_slots[] = {
    {Py_tp_call, PyVectorcall_Call},    {Py_tp_descr_get, forward_get},
    {Py_tp_repr, forward_repr},         {Py_tp_members, forward_members},
    {Py_tp_methods, forward_methods},   {Py_tp_getset, forward_getset},
    {Py_tp_traverse, forward_traverse}, {Py_tp_clear, forward_clear},
    {Py_tp_dealloc, forward_dealloc},   {0, NULL},
};

PyType_Spec pyext_forward_spec = {
    .name = "shakerand._core.engine_method",
    .basicsize = sizeof(ForwardObject),
    .flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC | Py_TPFLAGS_HAVE_VECTORCALL |
             Py_TPFLAGS_METHOD_DESCRIPTOR
#if PY_VERSION_HEX >= 0x030A0000
             | Py_TPFLAGS_IMMUTABLETYPE | Py_TPFLAGS_DISALLOW_INSTANTIATION
#endif
    ,
    .slots = forward_slots,
};

/* install_engine_methods(cls): cls (shakerand.Random) gets the methods
 * above, each replacing the one of its name. */
PyObject *pyext_install_engine_methods(core_state *st, PyObject *cls)
{
    if (!PyType_Check(cls)) {
        PyErr_SetString(PyExc_TypeError, "install_engine_methods() takes a class");
        return NULL;
    }
    PyTypeObject *owner = (PyTypeObject *)cls;
    PyObject *engine_attr = PyUnicode_InternFromString("_engine");
    if (engine_attr == NULL)
        return NULL;
    /* _engine's slot: a member descriptor in the class's own dict. */
    PyObject *slot = PyDict_GetItemWithError(owner->tp_dict, engine_attr);
    Py_ssize_t slot_offset = 0;
    /* Only a slot of this class's own layout: a descriptor taken from
     * another class could point past the end of this one's instances. */
    if (slot != NULL && Py_IS_TYPE(slot, &PyMemberDescr_Type) && PyDescr_TYPE(slot) == owner &&
        ((PyMemberDescrObject *)slot)->d_member->type == T_OBJECT_EX &&
        ((PyMemberDescrObject *)slot)->d_member->offset >= (Py_ssize_t)sizeof(PyObject) &&
        (size_t)((PyMemberDescrObject *)slot)->d_member->offset + sizeof(PyObject *) <=
            (size_t)owner->tp_basicsize)
        slot_offset = ((PyMemberDescrObject *)slot)->d_member->offset;
    else
        slot = NULL;
    if (PyErr_Occurred()) {
        Py_DECREF(engine_attr);
        return NULL;
    }
    for (size_t i = 0; i < sizeof forwarded / sizeof forwarded[0]; i++) {
        /* The Engine's own method, called directly: the same checks and
         * draws as engine.method(arg). */
        PyObject *method = PyDict_GetItemString(st->engine_type->tp_dict, forwarded[i].engine_name);
        const int flags = forwarded[i].arg != NULL ? METH_O : METH_NOARGS;
        if (method == NULL || !Py_IS_TYPE(method, &PyMethodDescr_Type) ||
            ((PyMethodDescrObject *)method)->d_method->ml_flags != flags) {
            PyErr_Format(PyExc_SystemError, "Engine.%s is not the method expected",
                         forwarded[i].engine_name);
            Py_DECREF(engine_attr);
            return NULL;
        }
        ForwardObject *f = PyObject_GC_New(ForwardObject, st->forward_type);
        if (f == NULL) {
            Py_DECREF(engine_attr);
            return NULL;
        }
        f->what = &forwarded[i];
        Py_INCREF(cls);
        f->owner = owner;
        f->call = ((PyMethodDescrObject *)method)->d_method->ml_meth;
        f->vectorcall = (vectorcallfunc)forward_vectorcall;
        f->name = PyUnicode_InternFromString(forwarded[i].name);
        f->qualname = PyUnicode_FromFormat("%s.%s", owner->tp_name, forwarded[i].name);
        f->arg_name = PyUnicode_FromString(forwarded[i].arg != NULL ? forwarded[i].arg : "");
        f->engine_name = PyUnicode_InternFromString(forwarded[i].engine_name);
        Py_INCREF(engine_attr);
        f->engine_attr = engine_attr;
        Py_XINCREF(slot);
        f->slot = slot;
        f->slot_offset = slot_offset;
        f->slot_version = 0; /* the first call on an instance sets it */
        PyObject_GC_Track(f);
        if (f->name == NULL || f->qualname == NULL || f->arg_name == NULL ||
            f->engine_name == NULL || PyObject_SetAttr(cls, f->name, (PyObject *)f) < 0) {
            Py_DECREF(f);
            Py_DECREF(engine_attr);
            return NULL;
        }
        Py_DECREF(f);
    }
    Py_DECREF(engine_attr);
    Py_RETURN_NONE;
}
