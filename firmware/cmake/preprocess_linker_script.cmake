# Produces a linker script from a template run through the C preprocessor, so addresses come
# from interface/memory_map.h. ld rejects C's unsigned suffix ("0x10000000u"), so it is removed
# from numeric literals after preprocessing.
# Usage: cmake -DCC=<compiler> -DINCLUDE_DIR=<dir> -DINPUT=<template> -DOUTPUT=<script> -P <this>
foreach(var CC INCLUDE_DIR INPUT OUTPUT)
  if(NOT DEFINED ${var})
    message(FATAL_ERROR "preprocess_linker_script.cmake: -D${var}=... is required")
  endif()
endforeach()

execute_process(
  COMMAND ${CC} -E -P -undef -x c -I${INCLUDE_DIR} ${INPUT}
  OUTPUT_VARIABLE script
  ERROR_VARIABLE errors
  RESULT_VARIABLE result)
if(NOT result EQUAL 0)
  message(FATAL_ERROR "preprocessing linker script ${INPUT} failed:\n${errors}")
endif()

# Only digits preceded by a non-identifier character are literals; symbol names stay untouched.
string(REGEX REPLACE "([^A-Za-z0-9_.$])(0[xX][0-9A-Fa-f]+|[0-9]+)[uU]" "\\1\\2" script "${script}")
file(WRITE ${OUTPUT} "${script}")
