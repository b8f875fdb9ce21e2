// Compiled by tests/core/wall/check.cmake: fine on its own, refused behind the LibTorch-free wall.
#include <c10/core/Device.h>

int main() { return 0; }
