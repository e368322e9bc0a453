# SPDX-License-Identifier: MIT OR Apache-2.0
# Checks that each C++ header, compiled in C++17 mode, stops with exactly
# one diagnostic: its own #error saying it needs C++20 (not dozens of errors
# from std::endian on, as before it had one).
# Usage: cmake -DCXX=<compiler> -DROOT=<repository> -DWORK=<dir> -P check_cxx20_error.cmake
cmake_minimum_required(VERSION 3.20)
if(NOT CXX OR NOT ROOT OR NOT WORK)
  message(FATAL_ERROR "usage: cmake -DCXX=<compiler> -DROOT=<repository> -DWORK=<dir> -P check_cxx20_error.cmake")
endif()
foreach(header shakerand.hpp randomshake/randomshake.hpp)
  string(MAKE_C_IDENTIFIER "${header}" name)
  set(source "${WORK}/cxx17_${name}.cpp")
  file(WRITE "${source}" "#include <${header}>\nint main() { return 0; }\n")
  execute_process(COMMAND "${CXX}" -std=c++17 -fsyntax-only -I "${ROOT}/include" "${source}"
    RESULT_VARIABLE status OUTPUT_VARIABLE out ERROR_VARIABLE out)
  string(REGEX MATCHALL "[^\n]*(error|warning):[^\n]*" diagnostics "${out}")
  list(LENGTH diagnostics count)
  if(status EQUAL 0 OR NOT count EQUAL 1 OR NOT out MATCHES "${header} needs C\\+\\+20")
    message(FATAL_ERROR "${header} in C++17 mode: exit status ${status}, ${count} diagnostics "
      "(want one, its #error):\n${out}")
  endif()
endforeach()
message(STATUS "each C++ header in C++17 mode stops at its one #error")
