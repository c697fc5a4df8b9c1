//! Placement: verification against an obvious oracle, and the symmetry group.

use nqueens::Placement;
use nqueens::Symmetry;
use nqueens::placement::{Defect, Line};
use proptest::prelude::*;

/// The textbook check: every pair of queens, row by row, the first conflict found.
fn naive_verify(cols: &[u32]) -> Result<(), Defect> {
    let n = cols.len();
    if n == 0 {
        return Err(Defect::Empty);
    }
    for (r2, &c2) in cols.iter().enumerate() {
        if c2 as usize >= n {
            return Err(Defect::OutOfBoard {
                row: r2,
                col: c2,
                n,
            });
        }
        let key = |line: Line, r: usize, c: u32| match line {
            Line::Column => i64::from(c),
            Line::Diagonal => r as i64 - i64::from(c),
            Line::AntiDiagonal => r as i64 + i64::from(c),
        };
        let lines = [Line::Column, Line::Diagonal, Line::AntiDiagonal];
        for line in lines {
            for (r1, &c1) in cols[..r2].iter().enumerate() {
                if key(line, r1, c1) == key(line, r2, c2) {
                    return Err(Defect::Attack {
                        first: (r1, c1),
                        second: (r2, c2),
                        line,
                    });
                }
            }
        }
    }
    Ok(())
}

/// A random permutation of `0..n` for `n` in `1..=max`.
fn permutation(max: usize) -> impl Strategy<Value = Placement> {
    (1..=max)
        .prop_flat_map(|n| Just((0..n as u32).collect::<Vec<_>>()).prop_shuffle())
        .prop_map(Placement::new)
}

proptest! {
    #[test]
    fn verify_agrees_with_the_pairwise_check(cols in (1usize..12).prop_flat_map(|n| prop::collection::vec(0..n as u32 + 1, n))) {
        prop_assert_eq!(Placement::new(cols.clone()).verify(), naive_verify(&cols));
    }

    #[test]
    fn every_format_parses_back(p in permutation(40), f in 0..4usize) {
        use nqueens::format::{write, Format};
        let format = [Format::Board, Format::Perm, Format::Json, Format::Svg][f];
        let mut text = Vec::new();
        write(&mut text, &p, format).unwrap();
        let back: Placement = String::from_utf8(text).unwrap().parse().unwrap();
        prop_assert_eq!(&back, &p);
        prop_assert_eq!(p.to_string().parse::<Placement>().unwrap(), p);
    }

    #[test]
    fn composition_is_applying_one_then_the_other(p in permutation(30), a in 0..8usize, b in 0..8usize) {
        let (a, b) = (Symmetry::ALL[a], Symmetry::ALL[b]);
        let stepwise = p.transform(a).unwrap().transform(b).unwrap();
        prop_assert_eq!(stepwise, p.transform(a.then(b)).unwrap());
    }

    #[test]
    fn inverse_undoes(p in permutation(30), a in 0..8usize) {
        let a = Symmetry::ALL[a];
        prop_assert_eq!(p.transform(a).unwrap().transform(a.inverse()).unwrap(), p);
    }

    #[test]
    fn canonical_is_idempotent_and_invariant(p in permutation(30)) {
        let canon = p.canonical().unwrap();
        prop_assert_eq!(canon.canonical().unwrap(), canon.clone());
        prop_assert!(canon <= p);
        for s in Symmetry::ALL {
            prop_assert_eq!(p.transform(s).unwrap().canonical().unwrap(), canon.clone());
        }
    }

    #[test]
    fn symmetries_keep_solutions_solutions(n in 4usize..40) {
        // A known solution family for every n >= 4 is found by the lazy listing.
        let p = nqueens::solutions::all(n).unwrap().next().unwrap();
        for s in Symmetry::ALL {
            prop_assert!(p.transform(s).unwrap().is_solution());
        }
    }
}

#[test]
fn the_eight_symmetries_form_a_group() {
    for a in Symmetry::ALL {
        assert_eq!(Symmetry::Identity.then(a), a);
        assert_eq!(a.then(Symmetry::Identity), a);
        assert_eq!(a.then(a.inverse()), Symmetry::Identity);
        for b in Symmetry::ALL {
            for c in Symmetry::ALL {
                assert_eq!(a.then(b).then(c), a.then(b.then(c)));
            }
        }
    }
}

#[test]
fn a_generic_solution_has_eight_distinct_images() {
    let p = Placement::from_one_based(&[1, 5, 8, 6, 3, 7, 2, 4]).unwrap();
    let mut images = p.images().unwrap().to_vec();
    images.sort();
    images.dedup();
    assert_eq!(images.len(), 8);
    assert_eq!(p.class_size(), Some(8));
}

#[test]
fn named_symmetries_move_squares_as_their_names_say() {
    let n = 5;
    assert_eq!(Symmetry::MirrorColumns.apply(n, 1, 0), (1, 4));
    assert_eq!(Symmetry::MirrorRows.apply(n, 1, 0), (3, 0));
    assert_eq!(Symmetry::Transpose.apply(n, 1, 0), (0, 1));
    assert_eq!(Symmetry::AntiTranspose.apply(n, 1, 0), (4, 3));
    assert_eq!(Symmetry::Rotate180.apply(n, 1, 0), (3, 4));
    assert_eq!(Symmetry::Rotate270.apply(n, 0, 0), (4, 0));
}

#[test]
fn non_permutations_have_no_images() {
    let p = Placement::new(vec![0, 0, 1]);
    assert!(!p.is_permutation());
    assert_eq!(p.transform(Symmetry::Rotate90), None);
    assert_eq!(p.canonical(), None);
    assert!(!Placement::new(vec![0, 3, 1]).is_permutation());
}
