# SPDX-License-Identifier: MIT OR Apache-2.0
# Checks that the C files of src/ and src/entropy/ are exactly the core
# sources of src/sources.txt, plus src/entropy/fault_testing.c, which is
# empty outside the testing library. The Go package's build compiles every
# C file of those two directories (they are Go packages, src/doc.go), while
# CMake, the cross builds and the Python package compile the list: a file
# in one and not the other would make the builds differ. Likewise cgo
# cannot read src/compile_options.txt, so every #cgo CFLAGS line of the
# packages that compile the core must carry each of its options.
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
file(STRINGS "${ROOT}/src/compile_options.txt" options REGEX "^[^#]")
foreach(go_file src/core.go src/entropy/entropy.go go/backend_cgo.go)
  file(STRINGS "${ROOT}/${go_file}" cflags REGEX "^#cgo CFLAGS:")
  if(NOT cflags)
    message(FATAL_ERROR "${go_file} has no #cgo CFLAGS line")
  endif()
  string(REPLACE " " ";" words "${cflags}")
  foreach(option IN LISTS options)
    if(NOT option IN_LIST words)
      message(FATAL_ERROR "${go_file}'s #cgo CFLAGS lacks ${option} (src/compile_options.txt)")
    endif()
  endforeach()
endforeach()
list(LENGTH listed n)
message(STATUS "src/sources.txt matches the C files of src/ (${n} files); the cgo CFLAGS carry src/compile_options.txt")
