//! Option strings (modes, function names): one matching rule for every function.
//!
//! numpy and JAX spell their modes lower-case (`mode='clip'`, `mode='promise_in_bounds'`);
//! SQL users write keywords in any case. Every option string of every tensor function is
//! matched the same way: exactly, except that ASCII case does not matter (`'CLIP'` is
//! `'clip'`). Nothing else is normalised: no trimming, no prefixes.

/// The value of the choice whose name `text` is, ASCII case aside.
pub fn match_option<T: Copy>(text: &str, choices: &[(&str, T)]) -> Option<T> {
    choices
        .iter()
        .find(|(name, _)| name.eq_ignore_ascii_case(text))
        .map(|&(_, value)| value)
}

#[cfg(test)]
mod tests {
    use super::match_option;

    #[test]
    fn case_does_not_matter_and_nothing_else_is_normalised() {
        let choices = [("clip", 1), ("raise", 2)];
        assert_eq!(match_option("clip", &choices), Some(1));
        assert_eq!(match_option("CLIP", &choices), Some(1));
        assert_eq!(match_option("Raise", &choices), Some(2));
        assert_eq!(match_option(" clip", &choices), None);
        assert_eq!(match_option("cli", &choices), None);
        assert_eq!(match_option("", &choices), None);
    }
}
