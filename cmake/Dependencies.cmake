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
