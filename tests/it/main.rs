//! The integration tests: one test program, a module per subject (one program per file would
//! link the whole library once each).

mod checkpoint;
mod cli_bench;
mod cli_complete;
mod cli_count;
mod cli_find;
mod cli_golden;
mod cli_help;
mod cli_hostile;
mod cli_long_runs;
mod cli_merge;
mod cli_puzzle;
mod cli_region;
mod cli_signals;
mod cli_solve;
mod cli_trace;
mod cli_verify;
mod common;
mod cp;
mod cp_blocked;
mod cp_learn;
mod cp_probe;
mod engine;
mod find;
mod fuzz_readers;
mod gpu;
mod gpu_join;
mod hostile_more;
mod join;
mod ladder;
mod placement;
mod readme;
mod region_page;
mod regions;
mod symmetric;
mod trace;
