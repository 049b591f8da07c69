# Writes OUT, a help2man include file with every subcommand's --help as a
# section of the man page (cli/CMakeLists.txt makes tlbf.1 from it):
#   cmake -DTLBF=path/to/tlbf -DOUT=commands.h2m -P ManCommands.cmake
set(text "[COMMANDS]\nEach command's own --help, as the program prints it.\n")
foreach(command inspect build query serve mutants mutate vectors check grade)
  execute_process(COMMAND ${TLBF} ${command} --help OUTPUT_VARIABLE help RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "${TLBF} ${command} --help failed (${rc})")
  endif()
  # roff: a backslash is \e, and a line may not start with a dot or a quote.
  string(REPLACE "\\" "\\e" help "${help}")
  string(REGEX REPLACE "(^|\n)([.'])" "\\1\\\\&\\2" help "${help}")
  string(APPEND text ".SS \"tlbf ${command}\"\n.nf\n${help}.fi\n")
endforeach()
string(APPEND text "[SEE ALSO]\nThe documents installed in share/doc/tlbf: format.md (the format), protocol.md (line protocol v1), check.md (tlbf check), mutants.md (tlbf mutate and tlbf grade), fuzzing.md, cli.md (every command and exit code).\n")
file(WRITE ${OUT} "${text}")
