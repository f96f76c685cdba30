# The architecture choice of cmake/cuda_archs.cmake against stand-in nvidia-smi programs: one GPU,
# several, none, a failing or missing nvidia-smi, output it cannot read, the option's values and a
# malformed list. Run by CTest as `cmake -DWORK=DIR -P cuda_archs_test.cmake` (no GPU needed).
#
# With -DCHOICE=... -DSMI=... it only prints what scanviz_choose_cuda_archs gives, so the main run
# can see a configure error (FATAL_ERROR) as the exit code of a child.
cmake_minimum_required(VERSION 3.25)  # script mode: the policies of the project
include("${CMAKE_CURRENT_LIST_DIR}/../../cmake/cuda_archs.cmake")

if(DEFINED CHOICE)
  scanviz_choose_cuda_archs("${CHOICE}" "${SMI}" archs why)
  scanviz_cuda_archs_text("${archs}" text)
  message("archs=${archs}|why=${why}|text=${text}")
  return()
endif()

function(expect what got want)
  if(NOT got STREQUAL want)
    message(SEND_ERROR "${what}: got '${got}', want '${want}'")
  else()
    message(STATUS "ok: ${what}")
  endif()
endfunction()

# A stand-in nvidia-smi printing TEXT and exiting with CODE.
function(fake_smi name text code)
  file(WRITE "${WORK}/${name}" "#!/bin/sh\nprintf '${text}'\nexit ${code}\n")
  file(CHMOD "${WORK}/${name}" PERMISSIONS OWNER_READ OWNER_WRITE OWNER_EXECUTE)
endfunction()

# Runs the choice in a child cmake; OUT gets its line, CODE its exit code.
function(choose choice smi out code)
  execute_process(COMMAND "${CMAKE_COMMAND}" "-DCHOICE=${choice}" "-DSMI=${smi}" -P "${CMAKE_CURRENT_LIST_FILE}"
                  OUTPUT_VARIABLE o ERROR_VARIABLE e RESULT_VARIABLE c)
  string(STRIP "${o}${e}" line)
  set(${out} "${line}" PARENT_SCOPE)
  set(${code} "${c}" PARENT_SCOPE)
endfunction()

file(MAKE_DIRECTORY "${WORK}")
fake_smi(one "NVIDIA GeForce RTX 4070, 8.9\\n" 0)
fake_smi(two "NVIDIA H100 80GB HBM3, 9.0\\nNVIDIA A100-SXM4-40GB, 8.0\\nNVIDIA H100 80GB HBM3, 9.0\\n" 0)
fake_smi(blackwell "NVIDIA GeForce RTX 5090, 12.0\\n" 0)
fake_smi(nogpu "No devices were found\\n" 6)
fake_smi(garbage "compute_cap\\n[N/A]\\n" 0)

set(portable "75-real;80-real;90-real;120-real;90-virtual")

scanviz_detect_cuda_archs("${WORK}/one" archs gpus)
expect("one GPU: its architecture, real code only" "${archs}" "89-real")
expect("one GPU: named" "${gpus}" "NVIDIA GeForce RTX 4070 (8.9)")
scanviz_detect_cuda_archs("${WORK}/two" archs gpus)
expect("two kinds of GPU: each architecture once, sorted" "${archs}" "80-real;90-real")
expect("two kinds of GPU: each named once" "${gpus}" "NVIDIA H100 80GB HBM3 (9.0), NVIDIA A100-SXM4-40GB (8.0)")
scanviz_detect_cuda_archs("${WORK}/blackwell" archs gpus)
expect("compute capability 12.0" "${archs}" "120-real")
scanviz_detect_cuda_archs("${WORK}/nogpu" archs gpus)
expect("nvidia-smi fails (no GPU): nothing detected" "${archs}" "")
scanviz_detect_cuda_archs("${WORK}/garbage" archs gpus)
expect("unreadable output: nothing detected" "${archs}" "")
scanviz_detect_cuda_archs("" archs gpus)
expect("no nvidia-smi: nothing detected" "${archs}" "")
scanviz_detect_cuda_archs("${WORK}/does-not-exist" archs gpus)
expect("a missing program: nothing detected" "${archs}" "")

scanviz_choose_cuda_archs(auto "${WORK}/one" archs why)
expect("auto with a GPU: its architecture" "${archs}" "89-real")
expect("auto with a GPU: says it detected it" "${why}" "detected NVIDIA GeForce RTX 4070 (8.9)")
scanviz_choose_cuda_archs(auto "${WORK}/nogpu" archs why)
expect("auto without a GPU: the portable list" "${archs}" "${portable}")
scanviz_choose_cuda_archs(auto "" archs why)
expect("auto without nvidia-smi: the portable list" "${archs}" "${portable}")
scanviz_choose_cuda_archs(portable "${WORK}/one" archs why)
expect("portable ignores the GPU" "${archs}" "${portable}")
scanviz_choose_cuda_archs("86" "${WORK}/one" archs why)
expect("an explicit architecture wins over the GPU" "${archs}" "86")
scanviz_choose_cuda_archs("89;90-real" "" archs why)
expect("an explicit list, as given" "${archs}" "89;90-real")

scanviz_cuda_archs_text("${portable}" text)
expect("the portable list in words" "${text}" "sm_75, sm_80, sm_90, sm_120 and PTX for compute_90")

scanviz_cuda_archs_one_per_major("75-real;80-real;86-real;89-real;90-real;120-real;90-virtual" archs)
expect("traced kernels: one real architecture a major version, the PTX kept" "${archs}" "75-real;80-real;90-real;90-virtual;120-real")
scanviz_cuda_archs_one_per_major("${portable}" archs)
expect("the portable list is one a major version already" "${archs}" "75-real;80-real;90-real;90-virtual;120-real")
scanviz_cuda_archs_one_per_major("89;86;80-real" archs)
expect("traced kernels: the lowest of a major, whatever the order; a dropped entry keeps its PTX" "${archs}" "80-real;86-virtual;89-virtual")
scanviz_cuda_archs_one_per_major("90a-real;90-real" archs)
expect("traced kernels: architecture-specific entries kept" "${archs}" "90-real;90a-real")
scanviz_cuda_archs_text("90-real" text)
expect("one real architecture in words" "${text}" "sm_90")
scanviz_cuda_archs_text("80-virtual" text)
expect("PTX only in words" "${text}" "PTX for compute_80")

choose("sm_86" "" line code)
expect("a malformed architecture: configure fails" "${code}" "1")
if(NOT line MATCHES "SCANVIZ_CUDA_ARCHS: 'sm_86' is not an architecture")
  message(SEND_ERROR "a malformed architecture: the error does not name it: ${line}")
endif()
choose("" "" line code)
expect("an empty list: configure fails" "${code}" "1")
choose("auto" "${WORK}/two" line code)
expect("a child run of auto with two GPUs" "${line}"
       "archs=80-real;90-real|why=detected NVIDIA H100 80GB HBM3 (9.0), NVIDIA A100-SXM4-40GB (8.0)|text=sm_80, sm_90")
