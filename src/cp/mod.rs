//! A small propagation solver for N-Queens, with fixed queens and blocked squares.
