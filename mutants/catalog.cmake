# Reads the catalog of planted bugs (mutants/catalog.json), the one place
# their ids are written, for every CMake list that names them:
#   TLBF_MUTANT_CATALOG  the file
#   TLBF_MUTANT_IDS      s01;s02;...
#   TLBF_MUTANT_IDS_CSV  s01,s02,...
#   TLBF_SWITCH_FILES    the oracle sources that hold their switches
set(TLBF_MUTANT_CATALOG ${CMAKE_CURRENT_LIST_DIR}/catalog.json)
set_property(DIRECTORY ${PROJECT_SOURCE_DIR} APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${TLBF_MUTANT_CATALOG})
file(READ ${TLBF_MUTANT_CATALOG} tlbf_catalog_text)
string(JSON tlbf_catalog_count LENGTH "${tlbf_catalog_text}" mutants)
set(TLBF_MUTANT_IDS "")
set(TLBF_SWITCH_FILES "")
math(EXPR tlbf_catalog_last "${tlbf_catalog_count} - 1")
foreach(i RANGE ${tlbf_catalog_last})
  string(JSON id GET "${tlbf_catalog_text}" mutants ${i} id)
  string(JSON file GET "${tlbf_catalog_text}" mutants ${i} oracle file)
  list(APPEND TLBF_MUTANT_IDS ${id})
  list(APPEND TLBF_SWITCH_FILES ${file})
endforeach()
list(REMOVE_DUPLICATES TLBF_SWITCH_FILES)
string(JOIN "," TLBF_MUTANT_IDS_CSV ${TLBF_MUTANT_IDS})  # for C++ tests: TLBF_MUTANT_IDS="s01,s02,..."
