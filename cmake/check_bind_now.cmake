# SPDX-License-Identifier: MIT OR Apache-2.0
# Checks that shipped ELF shared objects bind every symbol at load (DT_FLAGS
# BIND_NOW or DT_FLAGS_1 NOW) and make their relocated data read-only
# (a GNU_RELRO segment): CMakeLists.txt says why.
# Usage: cmake -DREADELF=<readelf> -DLIBS="<lib>;<lib>" -P check_bind_now.cmake
cmake_minimum_required(VERSION 3.20)
set(found "")
foreach(lib IN LISTS LIBS)
  execute_process(COMMAND "${READELF}" -d -l -W "${lib}" OUTPUT_VARIABLE out RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "${READELF} ${lib} failed")
  endif()
  if(NOT out MATCHES "\\(FLAGS\\)[^\n]*BIND_NOW" AND NOT out MATCHES "\\(FLAGS_1\\)[^\n]*NOW")
    string(APPEND found "  ${lib}: no BIND_NOW (lazy binding)\n")
  endif()
  if(NOT out MATCHES "GNU_RELRO")
    string(APPEND found "  ${lib}: no GNU_RELRO segment\n")
  endif()
endforeach()
if(found)
  message(FATAL_ERROR "shipped shared objects linked without -z now -z relro:\n${found}")
endif()
message(STATUS "BIND_NOW and GNU_RELRO in ${LIBS}")
