# Runs POSLAB with ARGS (a list) and writes its standard output to OUT: through a temporary file,
# renamed, so a failed run leaves no partial man page or completion script.
separate_arguments(ARGS UNIX_COMMAND "${ARGS}")
execute_process(COMMAND ${POSLAB} ${ARGS} OUTPUT_FILE ${OUT}.tmp RESULT_VARIABLE result)
if(NOT result EQUAL 0)
  file(REMOVE ${OUT}.tmp)
  message(FATAL_ERROR "${POSLAB} ${ARGS} failed (${result})")
endif()
file(RENAME ${OUT}.tmp ${OUT})
