# Every third-party dependency is found here, once. Versions that differ between the Debian
# machines (LibTorch 1.13 CPU, yaml-cpp 0.7, CLI11 2.1) and the GPU image (LibTorch 2.x CUDA,
# yaml-cpp 0.8, CLI11 2.4) are handled here, not in the sources.

find_package(Torch REQUIRED)
find_package(yaml-cpp REQUIRED)
find_package(nlohmann_json 3.10 REQUIRED)
find_package(CLI11 REQUIRED)
find_package(Threads REQUIRED)
find_package(ZLIB REQUIRED)
# RapidJSON is header-only; Debian's CMake config for it names no target, so the header is found.
find_path(RAPIDJSON_INCLUDE_DIR rapidjson/reader.h REQUIRED)

# Torch's CMake config lists libc10_cuda only when Torch was built with CUDA.
if(C10_CUDA_LIBRARY)
    set(SYNCTAX_HAVE_CUDA ON)
    message(STATUS "SyncTax: Torch ${Torch_VERSION} with CUDA: CUDA graphs and GPU timing are built")
else()
    set(SYNCTAX_HAVE_CUDA OFF)
    message(STATUS "SyncTax: Torch ${Torch_VERSION} without CUDA: CUDA-only code is left out")
endif()

# c10d, LibTorch's process groups, for data-parallel runs (distributed: in a config). Debian's
# libtorch_cpu exports ProcessGroupGloo but its header includes Gloo's own (libgloo-dev); the
# LibTorch 2.x archive ships both. The headers declare the classes only with USE_C10D_GLOO (and
# USE_C10D_NCCL), which the build of Torch itself defines.
find_file(SYNCTAX_C10D_GLOO_HEADER torch/csrc/distributed/c10d/ProcessGroupGloo.hpp
    HINTS ${TORCH_INCLUDE_DIRS} NO_CACHE)
find_path(SYNCTAX_GLOO_INCLUDE_DIR gloo/rendezvous/store.h HINTS ${TORCH_INCLUDE_DIRS} NO_CACHE)
set(SYNCTAX_HAVE_C10D OFF)
set(SYNCTAX_HAVE_NCCL OFF)
if(SYNCTAX_C10D_GLOO_HEADER AND SYNCTAX_GLOO_INCLUDE_DIR)
    set(SYNCTAX_HAVE_C10D ON)
    message(STATUS "SyncTax: c10d with Gloo found: data-parallel runs (distributed:) are built")
    if(SYNCTAX_HAVE_CUDA)
        find_file(SYNCTAX_C10D_NCCL_HEADER torch/csrc/distributed/c10d/ProcessGroupNCCL.hpp
            HINTS ${TORCH_INCLUDE_DIRS} NO_CACHE)
        # A pip wheel's torch finds NCCL's header in the nvidia-nccl wheel beside it.
        find_path(SYNCTAX_NCCL_INCLUDE_DIR nccl.h HINTS ${TORCH_INCLUDE_DIRS} ${CUDAToolkit_INCLUDE_DIRS}
            ${TORCH_INSTALL_PREFIX}/../nvidia/nccl/include /usr/local/cuda/include NO_CACHE)
        if(SYNCTAX_C10D_NCCL_HEADER AND SYNCTAX_NCCL_INCLUDE_DIR)
            set(SYNCTAX_HAVE_NCCL ON)
            message(STATUS "SyncTax: c10d with NCCL found: distributed backend nccl is built")
        else()
            message(STATUS "SyncTax: c10d's NCCL header or nccl.h not found: distributed backend nccl is left out")
        endif()
    endif()
else()
    message(STATUS "SyncTax: c10d's Gloo headers not found (libgloo-dev): data-parallel runs are left out")
endif()

# yaml-cpp 0.7 exports the plain target name, 0.8 a namespaced one.
if(TARGET yaml-cpp::yaml-cpp)
    set(SYNCTAX_YAML_TARGET yaml-cpp::yaml-cpp)
else()
    set(SYNCTAX_YAML_TARGET yaml-cpp)
endif()

set(SYNCTAX_GUI_ENABLED OFF)
if(SYNCTAX_BUILD_GUI)
    find_package(Qt6 6.2 COMPONENTS Widgets Charts Svg Test QUIET)
    if(Qt6_FOUND)
        set(SYNCTAX_GUI_ENABLED ON)
        message(STATUS "SyncTax: Qt ${Qt6_VERSION} found: the desktop app is built")
    else()
        message(STATUS "SyncTax: Qt 6 (Widgets, Charts, Svg, Test) not found: the desktop app is left out")
    endif()
else()
    message(STATUS "SyncTax: desktop app switched off (SYNCTAX_BUILD_GUI=OFF)")
endif()

if(SYNCTAX_BUILD_TESTS)
    find_package(GTest REQUIRED)
endif()

# Marks a target LibTorch-free: cmake/torchfree.h, force-included, makes any torch, ATen or c10
# header a compile error in it (see core/CMakeLists.txt).
function(synctax_torch_free target)
    target_compile_options(${target} PRIVATE -include ${PROJECT_SOURCE_DIR}/cmake/torchfree.h)
endfunction()
