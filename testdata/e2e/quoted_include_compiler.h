// Included by quoted_include_ok.cu only where the compiler is not clang,
// which ldcheck's analysis is: the compiles of the instrumented source must
// find it next to the source by themselves.
#define COMPILER_NOTE 1
