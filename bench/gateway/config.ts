// Shared by the bench and the processes it starts.

/** The one plan of the gateway under test. */
export const BENCH_LOGIN = 'benchlogin01';
export const BENCH_PASSWORD = 'BenchPass1';
