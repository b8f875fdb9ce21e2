# The ui tests run with a HOME and a TMPDIR of their own under SANDBOX/<test>/ (tests/ui/CMakeLists.txt).
# MODE=setup: empty folders for each of NAMES. MODE=check, after them all: fails if a test left a
# file in either (settings, recent files, autosaved runs, pictures), or names a fixed path under
# /tmp, which no sandbox catches.
if(MODE STREQUAL "setup")
    file(REMOVE_RECURSE ${SANDBOX})
    foreach(name ${NAMES})
        file(MAKE_DIRECTORY ${SANDBOX}/${name}/home ${SANDBOX}/${name}/tmp)
    endforeach()
    return()
endif()

set(problems "")
file(GLOB_RECURSE left LIST_DIRECTORIES false RELATIVE ${SANDBOX} ${SANDBOX}/*)
foreach(f ${left})
    string(APPEND problems "  left behind: ${f}\n")
endforeach()
file(GLOB_RECURSE sources ${SOURCES}/*.cpp)
foreach(source ${sources})
    file(STRINGS ${source} lines REGEX "\"/tmp/")
    foreach(line ${lines})
        get_filename_component(name ${source} NAME)
        string(STRIP "${line}" line)
        string(APPEND problems "  ${name} writes to a fixed path under /tmp: ${line}\n")
    endforeach()
endforeach()
if(problems)
    message(FATAL_ERROR "the ui tests must write only into their own temporary folders:\n${problems}")
endif()
