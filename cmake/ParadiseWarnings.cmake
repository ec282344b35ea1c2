# Warning flags shared by every target (paradise_set_warnings(<target>)).
add_library(paradise_warnings INTERFACE)
target_compile_options(paradise_warnings INTERFACE
  -Wall -Wextra -Wpedantic -Wshadow -Wconversion -Wsign-conversion -Wnon-virtual-dtor
  -Wold-style-cast -Woverloaded-virtual -Wimplicit-fallthrough)
if(PARADISE_WERROR)
  target_compile_options(paradise_warnings INTERFACE -Werror)
endif()
if(PARADISE_SANITIZE)
  target_compile_options(paradise_warnings INTERFACE -fsanitize=address,undefined -fno-omit-frame-pointer)
  target_link_options(paradise_warnings INTERFACE -fsanitize=address,undefined)
endif()
