// jpeglib.h needs FILE and size_t declared first.
#include <stdio.h>
#include <jpeglib.h>
