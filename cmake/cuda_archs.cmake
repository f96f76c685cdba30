# Which GPU architectures the CUDA code is built for (SCANVIZ_CUDA_ARCHS), as CMake architecture
# lists. Included by the top level and by tests/cmake/cuda_archs_test.cmake, which runs these
# functions against stand-in nvidia-smi programs (no GPU needed).
#
#   auto (default)  the compute capability of every GPU nvidia-smi lists on this machine, real code
#                   only; with no GPU (or no nvidia-smi, or output it cannot read) the portable list
#   portable        real code for the lowest architecture of each major version from Turing (sm_75:
#                   T4, RTX 20) to Blackwell (sm_120: RTX 50): a GPU runs machine code built for an
#                   earlier minor version of its major one, so sm_80 code serves sm_86 and sm_89
#                   (RTX 30, RTX 40), which a build on such a machine compiles for exactly; and PTX for
#                   compute_90, which a GPU with no machine code here (sm_100, sm_103: B200, B300;
#                   anything newer) compiles when the program starts
#   a list          e.g. 86 or 89;90 or 100-real: CMake's CUDA_ARCHITECTURES syntax, as given

set(SCANVIZ_CUDA_ARCHS_PORTABLE "75-real;80-real;90-real;120-real;90-virtual")

# Reads nvidia-smi's "name, compute capability" lines into OUT_ARCHS ("86-real;90-real", sorted,
# each once) and OUT_GPUS ("NVIDIA GeForce RTX 4070 (8.9)"); both empty when there is no GPU.
function(scanviz_detect_cuda_archs nvidia_smi out_archs out_gpus)
  set(archs "")
  set(gpus "")
  if(nvidia_smi)
    execute_process(COMMAND "${nvidia_smi}" --query-gpu=name,compute_cap --format=csv,noheader
                    OUTPUT_VARIABLE text RESULT_VARIABLE code ERROR_QUIET TIMEOUT 20)
    if(code EQUAL 0)
      string(REPLACE "\n" ";" lines "${text}")
      foreach(line IN LISTS lines)
        if(line MATCHES "^(.+), *([1-9][0-9]*)\\.([0-9]) *$")
          list(APPEND archs "${CMAKE_MATCH_2}${CMAKE_MATCH_3}-real")
          list(APPEND gpus "${CMAKE_MATCH_1} (${CMAKE_MATCH_2}.${CMAKE_MATCH_3})")
        endif()
      endforeach()
    endif()
  endif()
  list(REMOVE_DUPLICATES archs)
  list(SORT archs COMPARE NATURAL)
  list(REMOVE_DUPLICATES gpus)
  set(${out_archs} "${archs}" PARENT_SCOPE)
  string(REPLACE ";" ", " gpus "${gpus}")
  set(${out_gpus} "${gpus}" PARENT_SCOPE)
endfunction()

# CHOICE (auto, portable or a list) -> OUT_ARCHS (a CUDA_ARCHITECTURES list) and OUT_WHY (one
# phrase for the configure message). A malformed list is a configure error naming it.
function(scanviz_choose_cuda_archs choice nvidia_smi out_archs out_why)
  if(choice STREQUAL "auto")
    scanviz_detect_cuda_archs("${nvidia_smi}" archs gpus)
    if(archs)
      set(why "detected ${gpus}")
    else()
      set(archs "${SCANVIZ_CUDA_ARCHS_PORTABLE}")
      set(why "no GPU detected: the portable list")
    endif()
  elseif(choice STREQUAL "portable")
    set(archs "${SCANVIZ_CUDA_ARCHS_PORTABLE}")
    set(why "the portable list")
  else()
    set(archs "${choice}")
    foreach(arch IN LISTS archs)
      if(NOT arch MATCHES "^[1-9][0-9]+[af]?(-real|-virtual)?$")
        message(FATAL_ERROR "SCANVIZ_CUDA_ARCHS: '${arch}' is not an architecture such as 86, 90-real or 120 "
                            "(or use auto or portable)")
      endif()
    endforeach()
    if(NOT archs)
      message(FATAL_ERROR "SCANVIZ_CUDA_ARCHS is empty (auto, portable, or a list such as 86;90)")
    endif()
    set(why "SCANVIZ_CUDA_ARCHS=${choice}")
  endif()
  set(${out_archs} "${archs}" PARENT_SCOPE)
  set(${out_why} "${why}" PARENT_SCOPE)
endfunction()

# "75-real;90;100-virtual" -> OUT_REAL "75;90" (machine code) and OUT_VIRTUAL "90;100" (PTX).
function(scanviz_cuda_archs_split archs out_real out_virtual)
  set(real "")
  set(virtual "")
  foreach(arch IN LISTS archs)
    string(REGEX REPLACE "-(real|virtual)$" "" number "${arch}")
    if(NOT arch MATCHES "-virtual$")
      list(APPEND real "${number}")
    endif()
    if(NOT arch MATCHES "-real$")
      list(APPEND virtual "${number}")
    endif()
  endforeach()
  set(${out_real} "${real}" PARENT_SCOPE)
  set(${out_virtual} "${virtual}" PARENT_SCOPE)
endfunction()

# "75-real;90;100-virtual" -> "sm_75, sm_90 and PTX for compute_90, compute_100": what a user reads
# in the message of a GPU the build was not made for.
function(scanviz_cuda_archs_text archs out_text)
  scanviz_cuda_archs_split("${archs}" real ptx)
  list(TRANSFORM real PREPEND "sm_")
  list(TRANSFORM ptx PREPEND "compute_")
  string(REPLACE ";" ", " text "${real}")
  if(ptx)
    string(REPLACE ";" ", " ptx "${ptx}")
    if(text)
      set(text "${text} and PTX for ${ptx}")
    else()
      set(text "PTX for ${ptx}")
    endif()
  endif()
  set(${out_text} "${text}" PARENT_SCOPE)
endfunction()

# The traced kernels' list: machine code for the lowest architecture of each major version (a GPU
# runs machine code built for an earlier minor version of its major one: sm_80 code on sm_86 and
# sm_89), the PTX and the architecture-specific entries (90a) as given. A traced kernel's speed does
# not matter, so one build per major version serves it: "75-real;80-real;86-real;89-real;90-real;
# 120-real;90-virtual" -> "75-real;80-real;90-real;120-real;90-virtual" (the portable list).
function(scanviz_cuda_archs_one_per_major archs out)
  set(kept "")
  set(majors "")
  list(SORT archs COMPARE NATURAL)  # the lowest of each major first
  foreach(arch IN LISTS archs)
    if(arch MATCHES "^([1-9][0-9]*)([0-9])(-real)?$")
      set(major "${CMAKE_MATCH_1}")
      set(number "${CMAKE_MATCH_1}${CMAKE_MATCH_2}")
      if(major IN_LIST majors)
        if(NOT arch MATCHES "-real$")
          list(APPEND kept "${number}-virtual")  # its PTX stays
        endif()
        continue()
      endif()
      list(APPEND majors "${major}")
    endif()
    list(APPEND kept "${arch}")
  endforeach()
  set(${out} "${kept}" PARENT_SCOPE)
endfunction()
