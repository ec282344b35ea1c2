# Warning flags shared by every target (paradise_set_warnings(<target>)).
add_library(paradise_warnings INTERFACE)
target_compile_options(paradise_warnings INTERFACE
  -Wall -Wextra -Wpedantic -Wshadow -Wconversion -Wsign-conversion -Wnon-virtual-dtor
  -Wold-style-cast -Woverloaded-virtual -Wimplicit-fallthrough)
# GCC 12 reports false -Wrestrict positives inside std::string operator+ at -O2
# (GCC bug 105329); they would break -Werror builds on Debian 12's compiler.
if(CMAKE_CXX_COMPILER_ID STREQUAL "GNU" AND CMAKE_CXX_COMPILER_VERSION VERSION_LESS 13)
  target_compile_options(paradise_warnings INTERFACE -Wno-restrict)
endif()
if(PARADISE_WERROR)
  target_compile_options(paradise_warnings INTERFACE -Werror)
endif()
if(PARADISE_SANITIZE)
  # a UBSan report fails the test that triggers it, instead of printing and going on
  target_compile_options(paradise_warnings INTERFACE -fsanitize=address,undefined
                                                     -fno-sanitize-recover=all -fno-omit-frame-pointer)
  target_link_options(paradise_warnings INTERFACE -fsanitize=address,undefined)
endif()
