// libsystemc refers to sc_main (a C symbol) from its own main(); GoogleTest's main() runs the
// tests instead, so a test executable that links SystemC only needs this to satisfy the linker.
extern "C" int sc_main(int /*argc*/, char* /*argv*/[]) { return 1; }
