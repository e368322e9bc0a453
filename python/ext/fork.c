/* SPDX-License-Identifier: MIT OR Apache-2.0 */
/*
 * The process's fork handlers. The list and the handlers are the
 * process's, not an interpreter's: a fork copies every interpreter's
 * buffers. The list has its own mutex, so interpreters with their own GILs
 * may add to it at once; the fork handlers hold it across the fork, so
 * the child's copy of the list is whole.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include <pthread.h>

#include "fork.h"

unsigned long pyext_fork_generation;

static pthread_mutex_t links_lock = PTHREAD_MUTEX_INITIALIZER;
static pyext_fork_link *links;

void pyext_fork_link_add(pyext_fork_link *link)
{
    pthread_mutex_lock(&links_lock);
    link->prev = NULL;
    link->next = links;
    if (links != NULL)
        links->prev = link;
    links = link;
    pthread_mutex_unlock(&links_lock);
}

void pyext_fork_link_remove(pyext_fork_link *link)
{
    pthread_mutex_lock(&links_lock);
    if (link->prev != NULL)
        link->prev->next = link->next;
    else
        links = link->next;
    if (link->next != NULL)
        link->next->prev = link->prev;
    pthread_mutex_unlock(&links_lock);
}

static void before_fork(void) { pthread_mutex_lock(&links_lock); }

static void after_fork_parent(void) { pthread_mutex_unlock(&links_lock); }

static void after_fork_child(void)
{
    pyext_fork_generation++;
    for (pyext_fork_link *link = links; link != NULL; link = link->next)
        link->empty_in_child(link);
    pthread_mutex_unlock(&links_lock);
}

static pthread_once_t fork_handlers_once = PTHREAD_ONCE_INIT;
static int fork_handlers_status;

static void register_fork_handlers_once(void)
{
    fork_handlers_status = pthread_atfork(before_fork, after_fork_parent, after_fork_child);
}

/* Once per process, whatever the number of module objects: each
 * registration would run the handlers again at every fork. */
int pyext_register_fork_handlers(void)
{
    pthread_once(&fork_handlers_once, register_fork_handlers_once);
    if (fork_handlers_status != 0) {
        PyErr_SetString(PyExc_ImportError, "shakerand: cannot register a fork handler");
        return -1;
    }
    return 0;
}
