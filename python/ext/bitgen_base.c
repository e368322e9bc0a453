/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * The base class of shakerand.numpy's bit generators, made over numpy's own
 * BitGenerator type when shakerand.numpy is imported (this module never
 * imports numpy itself).
 *
 * A numpy Generator copies the bitgen_t out of the capsule and keeps only
 * the bit generator, so the SystemBits or EngineBits that the bitgen_t
 * points into must live exactly as long as the bit generator. It is held
 * in a field of the instance, after numpy's own layout: set once
 * (_bind_bits), read through the read-only attribute _bits, released only
 * when the instance is deallocated. No Python code, through __dict__,
 * private attributes or __class__, can replace or drop it while a
 * Generator may still call into it.
 */
#include "_core.h"

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

/* The field: the last pointer of the type's own layout, which every
 * subclass's layout starts with. */
static PyObject **bits_field(PyObject *self)
{
    const PyTypeObject *base = numpy_base_of(Py_TYPE(self));
    return (PyObject **)((char *)self + base->tp_basicsize - (Py_ssize_t)sizeof(PyObject *));
}

static void numpy_base_dealloc(PyObject *self)
{
    PyTypeObject *type = Py_TYPE(self);
    PyObject **field = bits_field(self);
    PyObject *bits = *field;
    *field = NULL;
    numpy_base_of(type)->tp_base->tp_dealloc(self); /* numpy's; frees self */
    /* After: nothing left can call into it. */
    Py_XDECREF(bits);
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

static PyObject *numpy_base_bind_bits(PyObject *self, PyObject *bits)
{
    core_state *st = pyext_state_of_type(numpy_base_of(Py_TYPE(self)));
    if (!Py_IS_TYPE(bits, st->system_bits_type) && !Py_IS_TYPE(bits, st->engine_bits_type)) {
        PyErr_Format(PyExc_TypeError, "_bind_bits() takes a SystemBits or EngineBits, not %.100s",
                     Py_TYPE(bits)->tp_name);
        return NULL;
    }
    PyObject **field = bits_field(self);
    BINDING_LOCK();
    const int bound = *field != NULL;
    if (!bound) {
        Py_INCREF(bits);
        *field = bits;
    }
    BINDING_UNLOCK();
    if (bound) {
        PyErr_SetString(PyExc_RuntimeError,
                        "a shakerand bit generator is initialised once; make a new one");
        return NULL;
    }
    Py_RETURN_NONE;
}

static PyObject *numpy_base_bits(PyObject *self, void *unused)
{
    (void)unused;
    BINDING_LOCK();
    PyObject *bits = *bits_field(self);
    Py_XINCREF(bits);
    BINDING_UNLOCK();
    if (bits == NULL)
        Py_RETURN_NONE;
    return bits;
}

/* numpy's own BitGenerator hands out a capsule over an empty bitgen_t
 * (NULL functions: a Generator over it crashes): this one refuses until
 * bound. */
static PyObject *numpy_base_capsule(PyObject *self, void *unused)
{
    PyObject *bits = numpy_base_bits(self, unused);
    if (bits == Py_None) {
        Py_DECREF(bits);
        PyErr_SetString(PyExc_ValueError,
                        "this bit generator has no buffer bound (make a SystemBitGenerator or "
                        "a BitGenerator)");
        return NULL;
    }
    PyObject *capsule = PyObject_CallMethod(bits, "capsule", NULL);
    Py_DECREF(bits);
    return capsule;
}

static PyMethodDef numpy_base_methods[] = {
    {"_bind_bits", numpy_base_bind_bits, METH_O,
     "_bind_bits(bits) -> None: the SystemBits or EngineBits this bit generator serves numpy "
     "from, for its whole life (once)."},
    {NULL, NULL, 0, NULL},
};

static PyGetSetDef numpy_base_getset[] = {
    {"_bits", numpy_base_bits, NULL, "the SystemBits or EngineBits bound, or None", NULL},
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
        .basicsize = (int)((numpy_size + pointer - 1) / pointer * pointer + pointer),
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
