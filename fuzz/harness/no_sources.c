/* The Rust harness's executable is all libraries (the shim and tlbf::fuzz);
 * CMake asks for a source file all the same. */
typedef int tlbf_fuzz_no_sources;
