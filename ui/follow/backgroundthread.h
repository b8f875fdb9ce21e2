#pragma once

#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

namespace synctax {

// Called first on a worker thread of the Follow page (the folder's reader, the capture's
// calibration): the thread yields the CPU to the window's thread when both want it, so that on a
// machine whose cores the job itself keeps busy the window still draws on time. Linux schedules
// threads by their own nice value; elsewhere this does nothing.
inline void yieldToTheWindowThread()
{
#ifdef __linux__
    setpriority(PRIO_PROCESS, static_cast<id_t>(syscall(SYS_gettid)), 10);
#endif
}

} // namespace synctax
