// Force-included into the LibTorch-free targets (synctax_core and its tests). Every torch, ATen and
// c10 header names the namespace torch or c10, so including one there stops the build with
// "attempt to use poisoned" at the include.
#pragma GCC poison torch c10
