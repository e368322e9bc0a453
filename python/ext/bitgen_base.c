/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * The base class of shakerand.numpy's bit generators, made over numpy's own
 * BitGenerator type when shakerand.numpy is imported (this module never
 * imports numpy itself).
 *
 * A numpy Generator copies the bitgen_t out of the capsule and keeps only
 * the bit generator, so the SystemBits or EngineBits that the bitgen_t
 * points into must live exactly as long as the bit generator; and every
 * Generator draws from it under the bit generator's lock, which it reads
 * once, so that lock must stay the one they all hold. Both are fields of
 * the instance, after numpy's own layout, set once (_bind_bits) and
 * released only when the instance is deallocated: `lock` reads the field
 * (numpy's own __init__, called again, replaces only numpy's), and the
 * buffer is reached only through _locked, which holds that lock. No
 * Python code, through __dict__, private attributes, __class__ or the
 * garbage collector's referents (the fields are not traversed: neither
 * can lead back to the instance), can replace, drop or draw from them
 * behind a Generator's back.
 */
#include "bitgen_base.h"

#include <pthread.h>

static void numpy_base_dealloc(PyObject *self);

/* The type this file made, found from any subclass (Python subclasses
 * keep its dealloc's place in their chain of bases). */
static PyTypeObject *numpy_base_of(PyTypeObject *type)
{
    while (type->tp_dealloc != numpy_base_dealloc)
        type = type->tp_base;
    return type;
}

/* The fields: the type's own layout ends with them, and every subclass's
 * layout starts with its base's. */
typedef struct {
    PyObject *bits, *lock;
} bound_fields;

static bound_fields *fields_of(PyObject *self)
{
    const PyTypeObject *base = numpy_base_of(Py_TYPE(self));
    return (bound_fields *)((char *)self + base->tp_basicsize - (Py_ssize_t)sizeof(bound_fields));
}

static void numpy_base_dealloc(PyObject *self)
{
    PyTypeObject *type = Py_TYPE(self);
    bound_fields *f = fields_of(self), held = *f;
    f->bits = f->lock = NULL;
    numpy_base_of(type)->tp_base->tp_dealloc(self); /* numpy's; frees self */
    /* After: nothing left can call into them. */
    Py_XDECREF(held.bits);
    Py_XDECREF(held.lock);
    /* A heap type's instances hold a reference to it, which its dealloc
     * gives back (numpy's, for a static type, does not). */
    Py_DECREF(type);
}

#if defined(Py_GIL_DISABLED)
static pthread_mutex_t binding = PTHREAD_MUTEX_INITIALIZER;
#define BINDING_LOCK() pthread_mutex_lock(&binding)
#define BINDING_UNLOCK() pthread_mutex_unlock(&binding)
#else
#define BINDING_LOCK() ((void)0)
#define BINDING_UNLOCK() ((void)0)
#endif

/* numpy's own `lock`, which its __init__ set (its member descriptor: this
 * type's `lock` stands in front of it). */
static PyObject *numpy_lock(PyObject *self)
{
    PyTypeObject *numpy_type = numpy_base_of(Py_TYPE(self))->tp_base;
    PyObject *descr = PyDict_GetItemString(numpy_type->tp_dict, "lock"); /* borrowed */
    if (descr == NULL || Py_TYPE(descr)->tp_descr_get == NULL) {
        PyErr_SetString(PyExc_TypeError, "numpy's BitGenerator has no lock");
        return NULL;
    }
    return Py_TYPE(descr)->tp_descr_get(descr, self, (PyObject *)numpy_type);
}

/* _bind_bits(bits): bits, and the lock numpy's __init__ made, for good. */
static PyObject *numpy_base_bind_bits(PyObject *self, PyObject *bits)
{
    core_state *st = pyext_state_of_type(numpy_base_of(Py_TYPE(self)));
    if (!Py_IS_TYPE(bits, st->system_bits_type) && !Py_IS_TYPE(bits, st->engine_bits_type)) {
        PyErr_Format(PyExc_TypeError, "_bind_bits() takes a SystemBits or EngineBits, not %.100s",
                     Py_TYPE(bits)->tp_name);
        return NULL;
    }
    PyObject *lock = numpy_lock(self);
    if (lock == NULL)
        return NULL;
    if (lock == Py_None) {
        Py_DECREF(lock);
        PyErr_SetString(PyExc_RuntimeError, "_bind_bits() before numpy's BitGenerator.__init__");
        return NULL;
    }
    bound_fields *f = fields_of(self);
    BINDING_LOCK();
    const int bound = f->bits != NULL;
    if (!bound) {
        Py_INCREF(bits);
        f->bits = bits;
        f->lock = lock; /* the reference numpy_lock gave */
    }
    BINDING_UNLOCK();
    if (bound) {
        Py_DECREF(lock);
        PyErr_SetString(PyExc_RuntimeError,
                        "a shakerand bit generator is initialised once; make a new one");
        return NULL;
    }
    Py_RETURN_NONE;
}

/* The bound fields with new references, or both NULL. */
static bound_fields bound_of(PyObject *self)
{
    BINDING_LOCK();
    bound_fields held = *fields_of(self);
    Py_XINCREF(held.bits);
    Py_XINCREF(held.lock);
    BINDING_UNLOCK();
    return held;
}

static PyObject *numpy_base_bound(PyObject *self, void *unused)
{
    (void)unused;
    bound_fields held = bound_of(self);
    Py_XDECREF(held.lock);
    Py_XDECREF(held.bits);
    return PyBool_FromLong(held.bits != NULL);
}

/* The lock every Generator over this bit generator holds: the one bound,
 * or numpy's before binding. */
static PyObject *numpy_base_lock(PyObject *self, void *unused)
{
    (void)unused;
    bound_fields held = bound_of(self);
    Py_XDECREF(held.bits);
    return held.lock != NULL ? held.lock : numpy_lock(self);
}

/* numpy's own BitGenerator hands out a capsule over an empty bitgen_t
 * (NULL functions: a Generator over it crashes): this one refuses until
 * bound. */
static PyObject *numpy_base_capsule(PyObject *self, void *unused)
{
    (void)unused;
    bound_fields held = bound_of(self);
    Py_XDECREF(held.lock);
    if (held.bits == NULL) {
        PyErr_SetString(PyExc_ValueError,
                        "this bit generator has no buffer bound (make a SystemBitGenerator or "
                        "a BitGenerator)");
        return NULL;
    }
    PyObject *capsule = PyObject_CallMethod(held.bits, "capsule", NULL);
    Py_DECREF(held.bits);
    return capsule;
}

/* _locked(name, *args): the bound buffer's method `name` called with args
 * (for a plain attribute, its value) under the bound lock, which the caller
 * must not hold (numpy 1's lock is not reentrant). */
static PyObject *numpy_base_locked(PyObject *self, PyObject *args)
{
    static const char *const allowed[] = {"randbytes", "copy",    "load", "buffered",
                                          "kind",      "storage", NULL};
    const Py_ssize_t nargs = PyTuple_GET_SIZE(args);
    PyObject *name = nargs > 0 ? PyTuple_GET_ITEM(args, 0) : NULL;
    int known = 0;
    for (size_t i = 0; name != NULL && PyUnicode_Check(name) && allowed[i] != NULL; i++)
        known |= PyUnicode_CompareWithASCIIString(name, allowed[i]) == 0;
    if (!known) {
        PyErr_SetString(PyExc_ValueError,
                        "_locked() takes randbytes, copy, load, buffered, kind or storage");
        return NULL;
    }
    bound_fields held = bound_of(self);
    if (held.bits == NULL) {
        Py_XDECREF(held.lock);
        PyErr_SetString(PyExc_ValueError, "this bit generator has no buffer bound");
        return NULL;
    }
    PyObject *result = NULL, *attr = NULL, *rest = PyTuple_GetSlice(args, 1, nargs);
    PyObject *took = rest == NULL ? NULL : PyObject_CallMethod(held.lock, "acquire", NULL);
    if (took != NULL) {
        Py_DECREF(took);
        attr = PyObject_GetAttr(held.bits, name);
        if (attr != NULL) {
            result = attr;
            Py_INCREF(result);
            if (PyCallable_Check(attr)) {
                Py_DECREF(result);
                result = PyObject_Call(attr, rest, NULL);
            }
        }
        /* Released whatever the call did, its exception kept. */
        PyObject *type, *value, *traceback;
        PyErr_Fetch(&type, &value, &traceback);
        PyObject *released = PyObject_CallMethod(held.lock, "release", NULL);
        if (released == NULL) {
            Py_CLEAR(result);
            Py_XDECREF(type);
            Py_XDECREF(value);
            Py_XDECREF(traceback);
        } else {
            Py_DECREF(released);
            PyErr_Restore(type, value, traceback);
        }
    }
    Py_XDECREF(attr);
    Py_XDECREF(rest);
    Py_DECREF(held.bits);
    Py_DECREF(held.lock);
    return result;
}

static PyMethodDef numpy_base_methods[] = {
    {"_bind_bits", numpy_base_bind_bits, METH_O,
     "_bind_bits(bits) -> None: the SystemBits or EngineBits this bit generator serves numpy "
     "from, and numpy's lock, for its whole life (once, after numpy's __init__)."},
    {"_locked", numpy_base_locked, METH_VARARGS,
     "_locked(name, *args): the bound buffer's method name called with args under the lock."},
    {NULL, NULL, 0, NULL},
};

static PyGetSetDef numpy_base_getset[] = {
    {"_bound", numpy_base_bound, NULL, "whether a buffer is bound", NULL},
    {"lock", numpy_base_lock, NULL, "the lock numpy's Generators hold around each call", NULL},
    {"capsule", numpy_base_capsule, NULL, "the bitgen_t capsule numpy's Generator reads", NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

static PyType_Slot numpy_base_slots[] = {
    {Py_tp_dealloc, numpy_base_dealloc},
    {Py_tp_methods, numpy_base_methods},
    {Py_tp_getset, numpy_base_getset},
    {Py_tp_doc, "The base of shakerand.numpy's bit generators: numpy's BitGenerator holding "
                "the buffer its bitgen_t points into for as long as it lives."},
    {0, NULL},
};

/* numpy_base(numpy.random.BitGenerator) -> the base type, made once per
 * module object. */
PyObject *pyext_numpy_base(PyObject *module, PyObject *numpy_type)
{
    core_state *st = PyModule_GetState(module);
    if (st->numpy_base_type != NULL) {
        if ((PyObject *)st->numpy_base_type->tp_base != numpy_type) {
            PyErr_SetString(PyExc_TypeError, "numpy_base() was made over another type");
            return NULL;
        }
        Py_INCREF(st->numpy_base_type);
        return (PyObject *)st->numpy_base_type;
    }
    if (!PyType_Check(numpy_type) ||
        !PyType_HasFeature((PyTypeObject *)numpy_type, Py_TPFLAGS_BASETYPE)) {
        PyErr_SetString(PyExc_TypeError, "numpy_base() takes numpy.random.BitGenerator");
        return NULL;
    }
    const Py_ssize_t pointer = (Py_ssize_t)sizeof(PyObject *),
                     numpy_size = ((PyTypeObject *)numpy_type)->tp_basicsize;
    /* The name must outlive the type (tp_name points into it); the rest
     * is copied. */
    PyType_Spec spec = {
        .name = "shakerand._core.NumpyBitGeneratorBase",
        .basicsize = (int)((numpy_size + pointer - 1) / pointer * pointer +
                           (Py_ssize_t)sizeof(bound_fields)),
        .flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE,
        .slots = numpy_base_slots,
    };
    PyObject *bases = PyTuple_Pack(1, numpy_type);
    if (bases == NULL)
        return NULL;
    PyObject *type = PyType_FromModuleAndSpec(module, &spec, bases);
    Py_DECREF(bases);
    if (type == NULL)
        return NULL;
    Py_INCREF(type);
    st->numpy_base_type = (PyTypeObject *)type;
    return type;
}
