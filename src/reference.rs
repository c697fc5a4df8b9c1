//! The published counts, to check any count against: OEIS A000170 (all solutions) and
//! A002562 (unique up to rotation and reflection), for N = 1 to 27 (`data/counts.tsv`).

const TABLE: &str = include_str!("../data/counts.tsv");

/// The published `(total, unique)` for `n`, or `None` beyond what has been counted (N > 27).
///
/// ```
/// assert_eq!(nqueens::reference::published(8), Some((92, 12)));
/// assert_eq!(nqueens::reference::published(28), None);
/// ```
pub fn published(n: usize) -> Option<(u128, u128)> {
    TABLE
        .lines()
        .filter(|line| !line.starts_with('#'))
        .filter_map(|line| {
            let mut fields = line.split('\t').map(str::parse::<u128>);
            match (fields.next(), fields.next(), fields.next()) {
                (Some(Ok(m)), Some(Ok(total)), Some(Ok(unique))) => Some((m, total, unique)),
                _ => None, // the header line
            }
        })
        .find(|&(m, _, _)| m == n as u128)
        .map(|(_, total, unique)| (total, unique))
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_table_covers_1_to_27() {
        for n in 1..=27 {
            assert!(super::published(n).is_some(), "N={n}");
        }
        assert_eq!(super::published(0), None);
        assert_eq!(super::published(27).unwrap().0, 234907967154122528);
    }
}
