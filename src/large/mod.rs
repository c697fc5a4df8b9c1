//! One solution for huge `n`: explicit construction and min-conflicts local search.
