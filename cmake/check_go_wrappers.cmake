# SPDX-License-Identifier: MIT OR Apache-2.0
# Checks that the Go package's C wrappers (go/core_*.c) are exactly the core
# sources of src/sources.txt: one wrapper per source, named after its path
# under src/ with '/' as '_' (src/entropy/os.c -> go/core_entropy_os.c),
# each including that source and nothing else. cgo compiles only the C
# files of the package directory, so a source added to the list without a
# wrapper would be missing from the Go build alone.
# Usage: cmake -DROOT=<repository> -P check_go_wrappers.cmake
cmake_minimum_required(VERSION 3.20)
if(NOT ROOT)
  message(FATAL_ERROR "usage: cmake -DROOT=<repository> -P check_go_wrappers.cmake")
endif()
file(STRINGS "${ROOT}/src/sources.txt" sources REGEX "^[^#]")
set(expected "")
set(errors "")
foreach(src IN LISTS sources)
  string(REGEX REPLACE "^src/" "" rel "${src}")
  string(REPLACE "/" "_" flat "${rel}")
  set(wrapper "go/core_${flat}")
  list(APPEND expected "${wrapper}")
  if(NOT EXISTS "${ROOT}/${wrapper}")
    string(APPEND errors "  ${src} has no wrapper ${wrapper}\n")
    continue()
  endif()
  file(STRINGS "${ROOT}/${wrapper}" includes REGEX "^[ \t]*#[ \t]*include")
  if(NOT includes STREQUAL "#include \"../${src}\"")
    string(APPEND errors "  ${wrapper} must include \"../${src}\" and nothing else, has: ${includes}\n")
  endif()
endforeach()
file(GLOB wrappers RELATIVE "${ROOT}" "${ROOT}/go/core_*.c")
foreach(wrapper IN LISTS wrappers)
  if(NOT wrapper IN_LIST expected)
    string(APPEND errors "  ${wrapper} wraps no file of src/sources.txt\n")
  endif()
endforeach()
if(errors)
  message(FATAL_ERROR "go/core_*.c and src/sources.txt disagree:\n${errors}")
endif()
list(LENGTH sources n)
message(STATUS "go/core_*.c match src/sources.txt (${n} files)")
