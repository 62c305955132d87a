# The committed coverage table must list exactly the ops in the op table (backend columns
# depend on the machine, so only the op rows are compared).
execute_process(COMMAND ${INFO} --markdown OUTPUT_VARIABLE now RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "ember-info --markdown failed")
endif()
file(READ ${DOC} committed)
foreach(text now committed)
  string(REGEX MATCHALL "\n\\| [a-z0-9_]+ \\| (primitive|composite) \\|" rows_${text} "${${text}}")
endforeach()
if(NOT rows_now STREQUAL rows_committed)
  message(FATAL_ERROR "docs/op-coverage.md is stale: run scripts/gen_coverage.sh")
endif()
