/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * shakerand._core: the C core for Python. The package's Python modules
 * (shakerand/__init__.py, shakerand/numpy.py) put the public API together
 * from what is here; python/README.md and docs/python.md say what each
 * function promises. CONTRIBUTING.md says which file holds what, and in
 * which layer: this one is the top.
 *
 * This file: the module (multi-phase init, state per module object) and its
 * functions, which draw from the calling thread's system generator.
 */
#include "bitgen_base.h"
#include "common.h"
#include "draw.h"
#include "engine_bits.h"
#include "engine_type.h"
#include "fork.h"
#include "forward.h"
#include "system_bits.h"

/* ---- Module functions: the system generator --------------------------- */

/* The one argument of a METH_FASTCALL | METH_KEYWORDS function, given by
 * position or by name (as the Python functions it stands in for allow);
 * *out is NULL if it is optional and absent. */
static int one_arg(const char *function, const char *name, int required, PyObject *const *args,
                   Py_ssize_t nargs, PyObject *kwnames, PyObject **out)
{
    const Py_ssize_t nkw = kwnames != NULL ? PyTuple_GET_SIZE(kwnames) : 0;
    if (nargs + nkw > 1) {
        PyErr_Format(PyExc_TypeError, "%s() takes at most 1 argument (%zd given)", function,
                     nargs + nkw);
        return -1;
    }
    if (nkw == 1 && PyUnicode_CompareWithASCIIString(PyTuple_GET_ITEM(kwnames, 0), name) != 0) {
        PyErr_Format(PyExc_TypeError, "%s() got an unexpected keyword argument %R", function,
                     PyTuple_GET_ITEM(kwnames, 0));
        return -1;
    }
    *out = nargs + nkw == 1 ? args[0] : NULL;
    if (required && *out == NULL) {
        PyErr_Format(PyExc_TypeError, "%s() missing required argument '%s' (pos 1)", function,
                     name);
        return -1;
    }
    return 0;
}

static PyObject *mod_random(PyObject *module, PyObject *unused)
{
    (void)module;
    (void)unused;
    return pyext_double_result(NULL);
}

/* These take any first argument (the module, or a SystemRandom instance
 * when they are its methods). */
static PyObject *mod_getrandbits(PyObject *self, PyObject *const *args, Py_ssize_t nargs,
                                 PyObject *kwnames)
{
    (void)self;
    PyObject *k;
    if (one_arg("getrandbits", "k", 1, args, nargs, kwnames, &k) < 0)
        return NULL;
    return pyext_getrandbits_of(NULL, k);
}

static PyObject *mod_randbytes(PyObject *self, PyObject *const *args, Py_ssize_t nargs,
                               PyObject *kwnames)
{
    (void)self;
    PyObject *arg;
    if (one_arg("randbytes", "n", 1, args, nargs, kwnames, &arg) < 0)
        return NULL;
    const Py_ssize_t n = pyext_count_arg(arg, "number of bytes");
    return n < 0 ? NULL : pyext_bytes_of(NULL, n);
}

/* secrets.token_bytes: None means 32 bytes. */
static PyObject *mod_token_bytes(PyObject *module, PyObject *const *args, Py_ssize_t nargs,
                                 PyObject *kwnames)
{
    (void)module;
    PyObject *arg;
    if (one_arg("token_bytes", "nbytes", 0, args, nargs, kwnames, &arg) < 0)
        return NULL;
    if (arg == NULL || arg == Py_None)
        return pyext_bytes_of(NULL, 32);
    const Py_ssize_t n = pyext_count_arg(arg, "nbytes");
    return n < 0 ? NULL : pyext_bytes_of(NULL, n);
}

static PyObject *mod_randbelow(PyObject *module, PyObject *const *args, Py_ssize_t nargs,
                               PyObject *kwnames)
{
    (void)module;
    PyObject *n;
    if (one_arg("randbelow", "exclusive_upper_bound", 1, args, nargs, kwnames, &n) < 0)
        return NULL;
    return pyext_randbelow_of(NULL, n, 0);
}

static PyObject *sysrandom_randbelow(PyObject *self, PyObject *const *args, Py_ssize_t nargs,
                                     PyObject *kwnames)
{
    (void)self;
    PyObject *n;
    if (one_arg("_randbelow", "n", 1, args, nargs, kwnames, &n) < 0)
        return NULL;
    return pyext_randbelow_of(NULL, n, 1);
}

static PyObject *mod_randbelow_internal(PyObject *module, PyObject *n)
{
    (void)module;
    return pyext_randbelow_of(NULL, n, 1);
}

static PyObject *mod_below_counted(PyObject *module, PyObject *args, PyObject *kwds)
{
    (void)module;
    return pyext_below_counted_of(NULL, args, kwds);
}

static PyObject *mod_uuid4(PyObject *module, PyObject *unused)
{
    (void)unused;
    return pyext_uuid_of(PyModule_GetState(module), NULL, 4);
}

static PyObject *mod_uuid7(PyObject *module, PyObject *unused)
{
    (void)unused;
    return pyext_uuid_of(PyModule_GetState(module), NULL, 7);
}

static PyObject *mod_kernel(PyObject *module, PyObject *unused)
{
    (void)module;
    (void)unused;
    return PyUnicode_FromString(shakerand_kernel_name());
}

static PyObject *mod_system_kind(PyObject *module, PyObject *unused)
{
    (void)module;
    (void)unused;
    return PyUnicode_FromString(shakerand_kind_name(shakerand_system_kind()));
}

static PyObject *optional_str(const char *s)
{
    if (s == NULL)
        Py_RETURN_NONE;
    return PyUnicode_FromString(s);
}

static PyObject *mod_sources(PyObject *module, PyObject *unused)
{
    (void)module;
    (void)unused;
    shakerand_source_info info[16];
    size_t n;
    Py_BEGIN_ALLOW_THREADS
    n = shakerand_sources(info, 16);
    Py_END_ALLOW_THREADS
    if (n > 16)
        n = 16;
    PyObject *list = PyList_New((Py_ssize_t)n);
    if (list == NULL)
        return NULL;
    for (size_t i = 0; i < n; i++) {
        PyObject *entry = Py_BuildValue(
            "{s:N,s:N,s:O,s:O,s:N}", "name", optional_str(info[i].name), "method",
            optional_str(info[i].method), "present", info[i].present ? Py_True : Py_False, "used",
            info[i].used ? Py_True : Py_False, "reason", optional_str(info[i].reason));
        if (entry == NULL) {
            Py_DECREF(list);
            return NULL;
        }
        PyList_SET_ITEM(list, (Py_ssize_t)i, entry);
    }
    return list;
}

/* reseed(data=None): the calling thread's generator reseeded from the
 * sources, data mixed in (it adds, never replaces). */
static PyObject *mod_reseed(PyObject *module, PyObject *const *args, Py_ssize_t nargs,
                            PyObject *kwnames)
{
    (void)module;
    PyObject *arg, *copy = NULL;
    if (one_arg("reseed", "data", 0, args, nargs, kwnames, &arg) < 0)
        return NULL;
    if (arg != NULL && arg != Py_None) {
        if (!PyObject_CheckBuffer(arg)) {
            PyErr_Format(PyExc_TypeError, "reseed() takes a bytes-like object or None, not %.100s",
                         Py_TYPE(arg)->tp_name);
            return NULL;
        }
        /* A copy, so any buffer serves (a strided array too) and none can change meanwhile;
         * a buffer that cannot be read (a released view) raises its own error. */
        copy = PyBytes_FromObject(arg);
        if (copy == NULL)
            return NULL;
    }
    const char *data = copy != NULL ? PyBytes_AS_STRING(copy) : NULL;
    size_t len = copy != NULL ? (size_t)PyBytes_GET_SIZE(copy) : 0;
    int status;
    Py_BEGIN_ALLOW_THREADS
    status = shakerand_system_reseed_with(data, len);
    Py_END_ALLOW_THREADS
    Py_XDECREF(copy); /* not wiped: for a bytes argument it is the caller's own object */
    if (status != SHAKERAND_OK)
        return pyext_raise_status(status), NULL;
    pyext_system_mark_ready();
    Py_RETURN_NONE;
}

/* new_epoch(): every thread's generator, and every SystemBits buffer,
 * reseeds before its next value (a snapshot's restore hook). */
static PyObject *mod_new_epoch(PyObject *module, PyObject *unused)
{
    (void)module;
    (void)unused;
    shakerand_system_new_epoch();
    Py_RETURN_NONE;
}

static PyObject *mod_watches_vm_generation(PyObject *module, PyObject *unused)
{
    (void)module;
    (void)unused;
    return PyBool_FromLong(shakerand_system_watches_vm_generation());
}

static PyObject *mod_reseed_failures(PyObject *module, PyObject *unused)
{
    (void)module;
    (void)unused;
    return PyLong_FromUnsignedLongLong(shakerand_system_reseed_failures());
}

#define FASTCALL_KW(f) (PyCFunction)(void (*)(void))(f), METH_FASTCALL | METH_KEYWORDS

/* SystemRandom's methods: method descriptors of the class, so that
 * SystemRandom.random(r) and super().random() work as in random.Random. */
static PyMethodDef system_random_methods[] = {
    {"random", mod_random, METH_NOARGS,
     "random($self, /)\n--\n\nA float in [0, 1) from the system generator (53 random bits)."},
    {"getrandbits", FASTCALL_KW(mod_getrandbits),
     "getrandbits($self, /, k)\n--\n\nAn int with k random bits from the system generator."},
    {"randbytes", FASTCALL_KW(mod_randbytes),
     "randbytes($self, /, n)\n--\n\nn bytes from the system generator."},
    {"_randbelow", FASTCALL_KW(sysrandom_randbelow),
     "_randbelow($self, /, n)\n--\n\nAn int in [0, n) (0 for n == 0): random.Random's hook."},
    {NULL, NULL, 0, NULL},
};

static PyObject *install_system_methods(PyObject *module, PyObject *cls)
{
    (void)module;
    if (!PyType_Check(cls)) {
        PyErr_SetString(PyExc_TypeError, "install_system_methods() takes a class");
        return NULL;
    }
    for (PyMethodDef *def = system_random_methods; def->ml_name != NULL; def++) {
        PyObject *method = PyDescr_NewMethod((PyTypeObject *)cls, def);
        if (method == NULL)
            return NULL;
        const int status = PyObject_SetAttrString(cls, def->ml_name, method);
        Py_DECREF(method);
        if (status < 0)
            return NULL;
    }
    Py_RETURN_NONE;
}

static PyObject *install_engine_methods(PyObject *module, PyObject *cls)
{
    return pyext_install_engine_methods(PyModule_GetState(module), cls);
}

static PyMethodDef module_methods[] = {
    {"random", mod_random, METH_NOARGS,
     "random($module, /)\n--\n\n"
     "A float in [0, 1) from the system generator (53 random bits)."},
    {"getrandbits", FASTCALL_KW(mod_getrandbits),
     "getrandbits($module, /, k)\n--\n\n"
     "An int with k random bits from the system generator."},
    {"randbytes", FASTCALL_KW(mod_randbytes),
     "randbytes($module, /, n)\n--\n\nn bytes from the system generator."},
    {"token_bytes", FASTCALL_KW(mod_token_bytes),
     "token_bytes($module, /, nbytes=None)\n--\n\n"
     "nbytes random bytes (32 if None), as secrets.token_bytes."},
    {"randbelow", FASTCALL_KW(mod_randbelow),
     "randbelow($module, /, exclusive_upper_bound)\n--\n\n"
     "An int in [0, exclusive_upper_bound), as secrets.randbelow."},
    {"_randbelow", mod_randbelow_internal, METH_O,
     "_randbelow(n) -> int in [0, n) (0 for n == 0): random.Random's hook."},
    {"below_counted", (PyCFunction)(void (*)(void))mod_below_counted, METH_VARARGS | METH_KEYWORDS,
     "below_counted(r, method='rng-bc-1') -> (int in [0, r), bits drawn)."},
    {"uuid4", mod_uuid4, METH_NOARGS, "uuid4() -> a random uuid.UUID (version 4)."},
    {"uuid7", mod_uuid7, METH_NOARGS,
     "uuid7() -> a time-ordered uuid.UUID (version 7), monotonic in this process."},
    {"kernel", mod_kernel, METH_NOARGS, "kernel() -> the name of the kernel set in use."},
    {"system_kind", mod_system_kind, METH_NOARGS,
     "system_kind() -> the engine kind the system generator runs."},
    {"sources", mod_sources, METH_NOARGS, "sources() -> the entropy sources, one dict each."},
    {"reseed", FASTCALL_KW(mod_reseed),
     "reseed($module, /, data=None)\n--\n\n"
     "Reseed this thread's system generator from the sources, mixing the bytes-like data in."},
    {"install_system_methods", install_system_methods, METH_O,
     "install_system_methods($module, cls, /)\n--\n\n"
     "Give cls (shakerand.SystemRandom) its methods in C."},
    {"install_engine_methods", install_engine_methods, METH_O,
     "install_engine_methods($module, cls, /)\n--\n\n"
     "Give cls (shakerand.Random) the methods that call its _engine's, in C."},
    {"numpy_base", pyext_numpy_base, METH_O,
     "numpy_base($module, numpy_bit_generator_type, /)\n--\n\n"
     "The base class of shakerand.numpy's bit generators, over numpy.random.BitGenerator."},
    {"new_epoch", mod_new_epoch, METH_NOARGS,
     "new_epoch() -> None: every thread's generator and every SystemBits buffer reseeds before its "
     "next value (call it after a snapshot is restored)."},
    {"watches_vm_generation", mod_watches_vm_generation, METH_NOARGS,
     "watches_vm_generation() -> whether a restored VM snapshot is detected without new_epoch "
     "(Linux's vmclock device)."},
    {"reseed_failures", mod_reseed_failures, METH_NOARGS,
     "reseed_failures() -> how many automatic reseeds have failed in this process."},
    {NULL, NULL, 0, NULL},
};

static int core_exec(PyObject *module)
{
    core_state *st = PyModule_GetState(module);
    if (pyext_uuid_init(st) < 0 || pyext_register_fork_handlers() < 0 || pyext_system_ready() < 0)
        return -1;
    st->engine_type = (PyTypeObject *)PyType_FromModuleAndSpec(module, &pyext_engine_spec, NULL);
    if (st->engine_type == NULL)
        return -1;
    st->system_bits_type =
        (PyTypeObject *)PyType_FromModuleAndSpec(module, &pyext_system_bits_spec, NULL);
    if (st->system_bits_type == NULL)
        return -1;
    st->engine_bits_type =
        (PyTypeObject *)PyType_FromModuleAndSpec(module, &pyext_engine_bits_spec, NULL);
    if (st->engine_bits_type == NULL)
        return -1;
    st->forward_type = (PyTypeObject *)PyType_FromModuleAndSpec(module, &pyext_forward_spec, NULL);
    if (st->forward_type == NULL)
        return -1;
#if PY_VERSION_HEX < 0x030A0000
    /* No Py_TPFLAGS_DISALLOW_INSTANTIATION yet: object.__new__ would make
     * an empty descriptor. */
    st->forward_type->tp_new = NULL;
#endif
    if (PyModule_AddType(module, st->engine_type) < 0 ||
        PyModule_AddType(module, st->system_bits_type) < 0 ||
        PyModule_AddType(module, st->engine_bits_type) < 0 ||
        PyModule_AddStringConstant(module, "core_version", shakerand_version()) < 0 ||
        PyModule_AddIntConstant(module, "RELEASE_GIL_BYTES", RELEASE_GIL_BYTES) < 0 ||
        PyModule_AddIntConstant(module, "SYSTEM_BITS_BYTES", SYSTEM_BITS_BYTES) < 0)
        return -1;
    PyObject *kinds = pyext_kind_names();
    if (kinds == NULL || PyModule_AddObject(module, "KINDS", kinds) < 0) {
        Py_XDECREF(kinds);
        return -1;
    }
    return 0;
}

static int core_traverse(PyObject *module, visitproc visit, void *arg)
{
    core_state *st = PyModule_GetState(module);
    Py_VISIT(st->engine_type);
    Py_VISIT(st->system_bits_type);
    Py_VISIT(st->engine_bits_type);
    Py_VISIT(st->forward_type);
    Py_VISIT(st->numpy_base_type);
    Py_VISIT(st->uuid_type);
    Py_VISIT(st->uuid_safe_unknown);
    Py_VISIT(st->str_int);
    Py_VISIT(st->str_is_safe);
    return 0;
}

static int core_clear(PyObject *module)
{
    core_state *st = PyModule_GetState(module);
    Py_CLEAR(st->engine_type);
    Py_CLEAR(st->system_bits_type);
    Py_CLEAR(st->engine_bits_type);
    Py_CLEAR(st->forward_type);
    Py_CLEAR(st->numpy_base_type);
    Py_CLEAR(st->uuid_type);
    Py_CLEAR(st->uuid_safe_unknown);
    Py_CLEAR(st->str_int);
    Py_CLEAR(st->str_is_safe);
    return 0;
}

static void core_free(void *module) { (void)core_clear((PyObject *)module); }

static PyModuleDef_Slot core_slots[] = {
    {Py_mod_exec, core_exec},
#if PY_VERSION_HEX >= 0x030C0000
    /* Every Python object the module keeps is in its state, one per module
     * object; what is shared lives in the C core, which is thread-safe
     * (each thread's system generator is its own, set up once per process),
     * or behind a mutex (fork.c's list of buffers and its fork handlers). */
    {Py_mod_multiple_interpreters, Py_MOD_PER_INTERPRETER_GIL_SUPPORTED},
#endif
#if PY_VERSION_HEX >= 0x030D0000
    /* No GIL needed: built for a free-threaded CPython, every call on an
     * Engine holds the engine's lock (pyext_engine_enter), two engines
     * locked in address order; the system generator is per thread, and
     * numpy calls a bit generator under its own lock. With a GIL the lock
     * is taken only around a fill that releases the GIL. */
    {Py_mod_gil, Py_MOD_GIL_NOT_USED},
#endif
    {0, NULL},
};

static struct PyModuleDef core_module = {
    PyModuleDef_HEAD_INIT,
    .m_name = "shakerand._core",
    .m_doc = "The shakerand C core (use the shakerand package).",
    .m_size = sizeof(core_state),
    .m_methods = module_methods,
    .m_slots = core_slots,
    .m_traverse = core_traverse,
    .m_clear = core_clear,
    .m_free = core_free,
};

PyMODINIT_FUNC PyInit__core(void) { return PyModuleDef_Init(&core_module); }
