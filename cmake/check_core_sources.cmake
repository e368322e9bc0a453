# SPDX-License-Identifier: MIT OR Apache-2.0
# Checks that the C files of src/ and src/entropy/ are exactly the core
# sources of src/sources.txt, plus src/entropy/fault_testing.c, which is
# empty outside the testing library. The Go package's build compiles every
# C file of those two directories (they are Go packages, src/doc.go), while
# CMake, the cross builds and the Python package compile the list: a file
# in one and not the other would make the builds differ.
# Usage: cmake -DROOT=<repository> -P check_core_sources.cmake
cmake_minimum_required(VERSION 3.20)
if(NOT ROOT)
  message(FATAL_ERROR "usage: cmake -DROOT=<repository> -P check_core_sources.cmake")
endif()
file(STRINGS "${ROOT}/src/sources.txt" listed REGEX "^[^#]")
file(GLOB found RELATIVE "${ROOT}" "${ROOT}/src/*.c" "${ROOT}/src/entropy/*.c")
list(REMOVE_ITEM found src/entropy/fault_testing.c)
list(SORT listed)
list(SORT found)
if(NOT listed STREQUAL found)
  message(FATAL_ERROR "src/sources.txt and the C files of src/ disagree:\n"
    "  listed: ${listed}\n  found:  ${found}")
endif()
file(READ "${ROOT}/src/entropy/fault_testing.c" fault)
if(NOT fault MATCHES "\n#if defined\\(SHAKERAND_TESTING\\)\n")
  message(FATAL_ERROR "src/entropy/fault_testing.c must compile to nothing without SHAKERAND_TESTING")
endif()
list(LENGTH listed n)
message(STATUS "src/sources.txt matches the C files of src/ (${n} files)")
