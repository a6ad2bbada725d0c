# Builds and runs tests/cmake/consumer twice: against an install of TP_BUILD (find_package) and against
# the source tree TP_SOURCE (add_subdirectory). Fails on any step. Usage (ctest runs it):
#   cmake -DTP_SOURCE=<repo> -DTP_BUILD=<native build dir> -DWORK=<scratch dir> -P tests/cmake/consumer.cmake
file(REMOVE_RECURSE ${WORK})
function(run)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
  if(NOT rc EQUAL 0)
    string(REPLACE ";" " " cmd "${ARGN}")
    message(FATAL_ERROR "failed (${rc}): ${cmd}\n${out}")
  endif()
  message(STATUS "${out}")
endfunction()
set(consumer ${TP_SOURCE}/tests/cmake/consumer)

# 1. find_package after cmake --install (the library this build already made).
run(${CMAKE_COMMAND} --install ${TP_BUILD} --prefix ${WORK}/prefix)
foreach(f include/tensorpad/tensor.hpp lib/cmake/tensorpad/tensorpadConfig.cmake)
  if(NOT EXISTS ${WORK}/prefix/${f})
    message(FATAL_ERROR "the install has no ${f}")
  endif()
endforeach()
run(${CMAKE_COMMAND} -S ${consumer} -B ${WORK}/installed -DCMAKE_BUILD_TYPE=Release -DCMAKE_PREFIX_PATH=${WORK}/prefix)
run(${CMAKE_COMMAND} --build ${WORK}/installed)
run(${WORK}/installed/consumer)

# 2. add_subdirectory of the source tree (compiles the core again, as a user's project would).
include(ProcessorCount)
ProcessorCount(jobs)
run(${CMAKE_COMMAND} -S ${consumer} -B ${WORK}/subdir -DCMAKE_BUILD_TYPE=Release -DTENSORPAD_SOURCE_DIR=${TP_SOURCE})
run(${CMAKE_COMMAND} --build ${WORK}/subdir -j ${jobs})
run(${WORK}/subdir/consumer)
