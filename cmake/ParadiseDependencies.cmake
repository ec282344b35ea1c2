# Finds the Debian packages ParaDiSE builds on (installed by .ci/install-deps).
# MPI and parallel HDF5 are found here once so that a machine without the parallel
# flavour fails at configure time, not later in a module that needs it.
find_package(MPI REQUIRED COMPONENTS C)

# Debian ships serial and MPICH-flavoured HDF5 side by side; without this CMake may
# silently pick the serial one (FindHDF5's HDF5_PREFER_PARALLEL).
set(HDF5_PREFER_PARALLEL ON)
find_package(HDF5 REQUIRED COMPONENTS C HL)
if(NOT HDF5_IS_PARALLEL)
  message(FATAL_ERROR "ParaDiSE needs parallel HDF5 (Debian: libhdf5-mpich-dev); found serial HDF5 at ${HDF5_INCLUDE_DIRS}")
endif()

find_package(Boost 1.74 REQUIRED COMPONENTS program_options)

if(PARADISE_BUILD_TESTS)
  find_package(GTest REQUIRED)
  find_package(nlohmann_json 3 REQUIRED)  # tests read the PyTorch reference JSON
  include(GoogleTest)
endif()
if(PARADISE_BUILD_BENCHMARKS)
  find_package(benchmark QUIET)
  if(NOT benchmark_FOUND)
    message(STATUS "Google Benchmark not found: benchmarks are not built")
    set(PARADISE_BUILD_BENCHMARKS OFF)
  endif()
endif()
