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

/// Levenshtein distance over characters.
fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut previous: Vec<usize> = (0..=b.len()).collect();
    let mut current = vec![0; b.len() + 1];
    for (i, ca) in a.chars().enumerate() {
        current[0] = i + 1;
        for (j, &cb) in b.iter().enumerate() {
            let substitution = previous[j] + usize::from(ca != cb);
            current[j + 1] = substitution.min(previous[j + 1] + 1).min(current[j] + 1);
        }
        std::mem::swap(&mut previous, &mut current);
    }
    previous[b.len()]
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
        assert_eq!(did_you_mean("matcher", keys), None);
        assert_eq!(did_you_mean("SessionStart", ["sessionStart", "stop"]), Some("sessionStart"));
    }
}
