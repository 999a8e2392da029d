# Turns a text file into a C++ source defining `extern const char* const <symbol>`.
# Usage: cmake -DINPUT=file -DOUTPUT=file.cpp [-DSYMBOL=name] -P embed_text.cmake
if(NOT SYMBOL)
  set(SYMBOL kDefaultScenarioYaml)
endif()
file(READ ${INPUT} content)
set(delimiter "SSDVP_EMBED")
file(WRITE ${OUTPUT}
  "// Generated from ${INPUT}; do not edit.\n"
  "namespace ssdvp {\nextern const char* const ${SYMBOL} = R\"${delimiter}(${content})${delimiter}\";\n}\n")
