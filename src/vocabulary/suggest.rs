//! "Did you mean …?" for misspelt keys, events, targets and selectors.

/// The candidate closest to `input`, if it is close enough to be a plausible typo.
pub fn did_you_mean<'c>(input: &str, candidates: impl IntoIterator<Item = &'c str>) -> Option<&'c str> {
    let input_lower = input.to_ascii_lowercase();
    let mut best: Option<(usize, &str)> = None;
    for candidate in candidates {
        let distance = edit_distance(&input_lower, &candidate.to_ascii_lowercase());
        if best.is_none_or(|(d, _)| distance < d) {
            best = Some((distance, candidate));
        }
    }
    let (distance, candidate) = best?;
    let allowed = (candidate.chars().count().max(input.chars().count()) / 3).max(1);
    (distance <= allowed).then_some(candidate)
}

/// Edit distance over characters where swapping two neighbours counts as one edit (optimal string
/// alignment), since `nmae` for `name` is the commonest typo there is.
fn edit_distance(a: &str, b: &str) -> usize {
    let a: Vec<char> = a.chars().collect();
    let b: Vec<char> = b.chars().collect();
    let mut d = vec![vec![0usize; b.len() + 1]; a.len() + 1];
    for (i, row) in d.iter_mut().enumerate() {
        row[0] = i;
    }
    for (j, cell) in d[0].iter_mut().enumerate() {
        *cell = j;
    }
    for i in 1..=a.len() {
        for j in 1..=b.len() {
            let cost = usize::from(a[i - 1] != b[j - 1]);
            let mut best = (d[i - 1][j] + 1).min(d[i][j - 1] + 1).min(d[i - 1][j - 1] + cost);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                best = best.min(d[i - 2][j - 2] + 1);
            }
            d[i][j] = best;
        }
    }
    d[a.len()][b.len()]
}

#[cfg(test)]
mod tests {
    use super::did_you_mean;

    #[test]
    fn suggests_close_names_only() {
        let keys = ["handler", "targets", "timeout", "tools", "args"];
        assert_eq!(did_you_mean("tool", keys), Some("tools"));
        assert_eq!(did_you_mean("timeOut", keys), Some("timeout"));
        assert_eq!(did_you_mean("handlr", keys), Some("handler"));
        assert_eq!(did_you_mean("nmae", ["name", "description", "version"]), Some("name"));
        assert_eq!(did_you_mean("matcher", keys), None);
        assert_eq!(did_you_mean("SessionStart", ["sessionStart", "stop"]), Some("sessionStart"));
    }
}
