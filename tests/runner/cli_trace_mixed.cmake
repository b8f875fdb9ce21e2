# synctax-run trace on small_resnet-mixed (README of tests/data/traces/torch-2.11-h200: .item(),
# .cpu() every step, .tolist() every 3rd, torch.nonzero every 4th, torch.cuda.synchronize() every
# 5th). The counts are one per cudaStreamSynchronize/cudaDeviceSynchronize inside a ProfilerStep,
# named by the outermost cpu_op around it, counted with python over the JSON: aten::to 8 (.cpu()
# and .tolist(); their blocking pageable copies add no sync of their own), aten::item 6,
# aten::nonzero 2, torch.cuda.synchronize 1.
include(${CMAKE_CURRENT_LIST_DIR}/trace_run.cmake)
run_trace(${DATA}/traces/torch-2.11-h200/small_resnet-mixed.pt.trace.json.gz --out ${WORK})
file(READ ${WORK}/trace-summary.json json)
string(JSON nsites LENGTH "${json}" sync_sites)
set(found "")
math(EXPR last "${nsites} - 1")
foreach(i RANGE ${last})
    string(JSON op GET "${json}" sync_sites ${i} op)
    string(JSON count GET "${json}" sync_sites ${i} count)
    list(APPEND found "${op}=${count}")
endforeach()
list(SORT found)
if(NOT found STREQUAL "aten::item=6;aten::nonzero=2;aten::to=8;torch.cuda.synchronize=1")
    message(FATAL_ERROR "sync sites: ${found}")
endif()
