# Sources are listed, not globbed: tl_check_listed stops the configure step when a .c file under
# a folder is in no list (e.g. a file added on another branch whose list line was lost in a merge).

# A source of the folder being read that this configuration does not build but another one does
# (experiments/run/mpi.c without -DTREELAB_MPI=ON): listed, so tl_check_listed passes it over.
function(tl_other_configuration)
  foreach(f ${ARGN})
    set_property(GLOBAL APPEND PROPERTY TL_OTHER_CONFIGURATION_SOURCES
                 ${CMAKE_CURRENT_SOURCE_DIR}/${f})
  endforeach()
endfunction()

# Fails naming every .c file under the folders DIRS... (relative to the project) that target
# does not list; EXCLUDE DIR... leaves folders out.
function(tl_check_listed target)
  cmake_parse_arguments(ARG "" "" "EXCLUDE" ${ARGN})
  get_target_property(listed ${target} SOURCES)
  get_property(other GLOBAL PROPERTY TL_OTHER_CONFIGURATION_SOURCES)
  list(APPEND listed ${other})
  set(missing "")
  foreach(dir ${ARG_UNPARSED_ARGUMENTS})
    file(GLOB_RECURSE found RELATIVE ${PROJECT_SOURCE_DIR} ${PROJECT_SOURCE_DIR}/${dir}/*.c)
    foreach(f ${found})
      set(skip OFF)
      foreach(ex ${ARG_EXCLUDE})
        if(f MATCHES "^${ex}/")
          set(skip ON)
        endif()
      endforeach()
      if(NOT skip AND NOT "${PROJECT_SOURCE_DIR}/${f}" IN_LIST listed)
        list(APPEND missing ${f})
      endif()
    endforeach()
  endforeach()
  if(missing)
    list(JOIN missing "\n  " text)
    message(FATAL_ERROR "These sources are in no list of ${target}; add each to its folder's "
                        "CMakeLists.txt (one file per line, sorted):\n  ${text}")
  endif()
endfunction()
