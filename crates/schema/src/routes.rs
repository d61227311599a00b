//! How a route path matches a requested path, shared by the resolver (client calls to routes:
//! FETCHES) and the read model (`route_impact GET /users/42`).

fn is_param(seg: &str) -> bool {
    seg.starts_with(':') || (seg.starts_with('{') && seg.ends_with('}'))
}

/// How a route path matches a requested path: 2 exactly, 1 with parameter segments standing
/// for values (either side; a trailing `:x*` takes one or more segments), 0 not at all.
pub fn path_match(route: &str, query: &str) -> u8 {
    if route == query {
        return 2;
    }
    let r: Vec<&str> = route.split('/').filter(|s| !s.is_empty()).collect();
    let q: Vec<&str> = query.split('/').filter(|s| !s.is_empty()).collect();
    let catch_all = r.last().is_some_and(|s| is_param(s) && s.ends_with('*'));
    if r.len() != q.len() && !(catch_all && q.len() >= r.len()) {
        return 0;
    }
    let ok = r.iter().zip(&q).all(|(a, b)| a == b || is_param(a) || is_param(b));
    u8::from(ok)
}

#[cfg(test)]
mod tests {
    use super::path_match;

    #[test]
    fn exact_params_and_catch_all() {
        assert_eq!(path_match("/u/:id", "/u/:id"), 2);
        assert_eq!(path_match("/u/:id", "/u/42"), 1);
        assert_eq!(path_match("/u/{id}", "/u/42"), 1);
        assert_eq!(path_match("/u/42", "/u/:x"), 1);
        assert_eq!(path_match("/u/:id", "/v/42"), 0);
        assert_eq!(path_match("/u/:id", "/u/42/x"), 0);
        assert_eq!(path_match("/files/:p*", "/files/a/b"), 1);
        assert_eq!(path_match("/files/:p*", "/files"), 0);
    }
}
