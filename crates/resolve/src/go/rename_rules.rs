//! What a rename must know of Go beyond the graph ([`crate::renames`]): the methods of the
//! standard library's common interfaces, and the example tests named after what they document.
//!
//! Why it exists: the graph holds one root, not the standard library. A Go type satisfies an
//! interface by its method set alone, so renaming `(*T).Read` compiles in `T`'s package and
//! breaks wherever a `*T` is passed as an `io.Reader` (or, for `String() string` and `Error()
//! string`, silently changes what `fmt` prints). Which values are converted to which
//! interfaces the graph does not record; what it can tell is that a method's name and
//! signature are exactly those of such an interface's method. The table is that knowledge,
//! compared on parameter and result types with package qualifiers dropped (`http.Request`
//! and `Request` alike, as in `net/http`'s own files). And `go vet` checks that an example
//! test (`ExampleF`, `ExampleT_M`, `ExampleF_suffix`) names an identifier of its package, so
//! a rename takes the examples named after its target.

use crate::renames::{NamedAfter, RenameTarget};
use codegraph_schema::NodeKind;

/// (interface, method, parameter types, result types), types normalized by [`normalize`].
const METHODS: &[(&str, &str, &str, &str)] = &[
    ("error", "Error", "", "string"),
    ("fmt.Stringer", "String", "", "string"),
    ("fmt.GoStringer", "GoString", "", "string"),
    ("fmt.Formatter", "Format", "State,rune", ""),
    ("context.Context", "Deadline", "", "Time,bool"),
    ("context.Context", "Done", "", "<-chanstruct{}"),
    ("context.Context", "Err", "", "error"),
    ("context.Context", "Value", "any", "any"),
    ("io.Reader", "Read", "[]byte", "int,error"),
    ("io.Writer", "Write", "[]byte", "int,error"),
    ("io.Closer", "Close", "", "error"),
    ("io.Seeker", "Seek", "int64,int", "int64,error"),
    ("io.ReaderAt", "ReadAt", "[]byte,int64", "int,error"),
    ("io.WriterAt", "WriteAt", "[]byte,int64", "int,error"),
    ("io.ReaderFrom", "ReadFrom", "Reader", "int64,error"),
    ("io.WriterTo", "WriteTo", "Writer", "int64,error"),
    ("io.ByteReader", "ReadByte", "", "byte,error"),
    ("io.ByteScanner", "UnreadByte", "", "error"),
    ("io.ByteWriter", "WriteByte", "byte", "error"),
    ("io.RuneReader", "ReadRune", "", "rune,int,error"),
    ("io.RuneScanner", "UnreadRune", "", "error"),
    ("io.StringWriter", "WriteString", "string", "int,error"),
    ("net/http.Handler", "ServeHTTP", "ResponseWriter,*Request", ""),
    ("net/http.ResponseWriter", "Header", "", "Header"),
    ("net/http.ResponseWriter", "WriteHeader", "int", ""),
    ("net/http.Flusher", "Flush", "", ""),
    ("net/http.Hijacker", "Hijack", "", "Conn,*ReadWriter,error"),
    ("net/http.RoundTripper", "RoundTrip", "*Request", "*Response,error"),
    ("net/http.CloseNotifier", "CloseNotify", "", "<-chanbool"),
    ("net/http.Pusher", "Push", "string,*PushOptions", "error"),
    ("net.Addr", "Network", "", "string"),
    ("net.Conn", "LocalAddr", "", "Addr"),
    ("net.Conn", "RemoteAddr", "", "Addr"),
    ("net.Conn", "SetDeadline", "Time", "error"),
    ("net.Conn", "SetReadDeadline", "Time", "error"),
    ("net.Conn", "SetWriteDeadline", "Time", "error"),
    ("net.Error", "Timeout", "", "bool"),
    ("net.Error", "Temporary", "", "bool"),
    ("sort.Interface", "Len", "", "int"),
    ("sort.Interface", "Less", "int,int", "bool"),
    ("sort.Interface", "Swap", "int,int", ""),
    ("container/heap.Interface", "Push", "any", ""),
    ("container/heap.Interface", "Pop", "", "any"),
    ("encoding.TextMarshaler", "MarshalText", "", "[]byte,error"),
    ("encoding.TextUnmarshaler", "UnmarshalText", "[]byte", "error"),
    ("encoding.BinaryMarshaler", "MarshalBinary", "", "[]byte,error"),
    ("encoding.BinaryUnmarshaler", "UnmarshalBinary", "[]byte", "error"),
    ("encoding/json.Marshaler", "MarshalJSON", "", "[]byte,error"),
    ("encoding/json.Unmarshaler", "UnmarshalJSON", "[]byte", "error"),
    ("encoding/xml.Marshaler", "MarshalXML", "*Encoder,StartElement", "error"),
    ("encoding/xml.Unmarshaler", "UnmarshalXML", "*Decoder,StartElement", "error"),
    ("encoding/gob.GobEncoder", "GobEncode", "", "[]byte,error"),
    ("encoding/gob.GobDecoder", "GobDecode", "[]byte", "error"),
    ("database/sql.Scanner", "Scan", "any", "error"),
    ("database/sql/driver.Valuer", "Value", "", "Value,error"),
    ("flag.Value", "Set", "string", "error"),
    ("flag.Getter", "Get", "", "any"),
    ("hash.Hash", "Sum", "[]byte", "[]byte"),
    ("hash.Hash", "Reset", "", ""),
    ("hash.Hash", "Size", "", "int"),
    ("hash.Hash", "BlockSize", "", "int"),
    ("hash.Hash32", "Sum32", "", "uint32"),
    ("hash.Hash64", "Sum64", "", "uint64"),
    ("io/fs.FS", "Open", "string", "File,error"),
    ("io/fs.File", "Stat", "", "FileInfo,error"),
    ("io/fs.FileInfo", "Name", "", "string"),
    ("io/fs.FileInfo", "Size", "", "int64"),
    ("io/fs.FileInfo", "Mode", "", "FileMode"),
    ("io/fs.FileInfo", "ModTime", "", "Time"),
    ("io/fs.FileInfo", "IsDir", "", "bool"),
    ("io/fs.FileInfo", "Sys", "", "any"),
    ("io/fs.DirEntry", "Type", "", "FileMode"),
    ("io/fs.DirEntry", "Info", "", "FileInfo,error"),
    ("sync.Locker", "Lock", "", ""),
    ("sync.Locker", "Unlock", "", ""),
    ("errors (Unwrap)", "Unwrap", "", "error"),
    ("errors (Is)", "Is", "error", "bool"),
    ("errors (As)", "As", "any", "bool"),
    ("runtime.Error", "RuntimeError", "", ""),
    ("os.Signal", "Signal", "", ""),
];

/// The standard-library interface methods (`io.Reader.Read`) whose name and signature a Go
/// method declaration's signature (`func (r *T) Read(p []byte) (n int, err error)`, or an
/// interface method's `Read([]byte) (int, error)`) matches exactly.
pub fn std_interface_methods(name: &str, signature: &str) -> Vec<String> {
    let Some((params, results)) = method_types(name, signature) else {
        return Vec::new();
    };
    METHODS
        .iter()
        .filter(|(_, m, p, r)| *m == name && *p == params && *r == results)
        .map(|(iface, m, _, _)| format!("{iface}.{m}"))
        .collect()
}

/// The example tests named after `target` (`ExampleF` and `ExampleF_suffix` for a function
/// or type `F`, `ExampleT_M` for a method `M` of `T`, `ExampleT_Method` for a type `T`'s
/// methods), in the `_test.go` files of its directory.
pub fn examples(target: &RenameTarget<'_>, new_name: &str) -> Option<NamedAfter> {
    let is_type = matches!(
        target.kind,
        NodeKind::Struct | NodeKind::Interface | NodeKind::DefinedType | NodeKind::TypeAlias
    );
    let (prefix, new_prefix) = match (target.kind, target.owner) {
        (NodeKind::Method, Some(t)) => {
            (format!("Example{t}_{}", target.name), format!("Example{t}_{new_name}"))
        }
        (NodeKind::Function, _) => {
            (format!("Example{}", target.name), format!("Example{new_name}"))
        }
        _ if is_type => (format!("Example{}", target.name), format!("Example{new_name}")),
        _ => return None,
    };
    Some(NamedAfter {
        prefix,
        new_prefix,
        upper_suffixes: is_type,
        file_suffix: "_test.go",
        dir: target.path.rsplit_once('/').map_or("", |(d, _)| d).to_string(),
        reason: "example test named after it (go vet)",
    })
}

/// (parameter types, result types) of the method `name` in `signature`, each a
/// comma-separated list of normalized types.
fn method_types(name: &str, signature: &str) -> Option<(String, String)> {
    // The name followed by its parameter list: after the receiver, if there is one.
    let mut from = 0;
    let start = loop {
        let at = from + signature[from..].find(name)?;
        let after = &signature[at + name.len()..];
        let word_start = signature[..at].chars().next_back().is_none_or(|c| !is_ident(c));
        if word_start && after.starts_with('(') {
            break at + name.len();
        }
        from = at + name.len();
    };
    let rest = &signature[start..];
    let close = matching_paren(rest)?;
    let params = type_list(&rest[1..close]);
    let tail = rest[close + 1..].trim();
    let results = if let Some(inner) = tail.strip_prefix('(') {
        let end = matching_paren(tail)?;
        type_list(&inner[..end - 1])
    } else {
        normalize(tail)
    };
    Some((params, results))
}

fn is_ident(c: char) -> bool {
    c.is_alphanumeric() || c == '_'
}

/// Index of the `)` closing the `(` that `s` starts with.
fn matching_paren(s: &str) -> Option<usize> {
    let mut depth = 0i32;
    for (i, c) in s.char_indices() {
        match c {
            '(' | '[' | '{' => depth += 1,
            ')' | ']' | '}' => {
                depth -= 1;
                if depth == 0 {
                    return (c == ')').then_some(i);
                }
            }
            _ => {}
        }
    }
    None
}

/// The types of a Go parameter list's text (`p []byte`, `a, b int`, `[]byte, int64`),
/// normalized and comma-joined. Either every entry is named (`name Type`, where a bare name
/// shares the type of the next entry) or none is.
fn type_list(text: &str) -> String {
    let mut entries: Vec<&str> = Vec::new();
    let (mut depth, mut last) = (0i32, 0);
    for (i, c) in text.char_indices() {
        match c {
            '(' | '[' | '{' => depth += 1,
            ')' | ']' | '}' => depth -= 1,
            ',' if depth == 0 => {
                entries.push(text[last..i].trim());
                last = i + 1;
            }
            _ => {}
        }
    }
    if !text[last..].trim().is_empty() {
        entries.push(text[last..].trim());
    }
    // Named when some entry is `name Type` (an identifier, a space, then more).
    let named = entries.iter().any(|e| {
        e.split_once(' ').is_some_and(|(n, t)| n.chars().all(is_ident) && !t.trim().is_empty())
    });
    let mut types: Vec<String> = Vec::new();
    let mut pending = 0;
    for e in entries {
        if !named {
            types.push(normalize(e));
            continue;
        }
        match e.split_once(' ') {
            Some((_, t)) => {
                let t = normalize(t);
                types.extend(std::iter::repeat_n(t, pending + 1));
                pending = 0;
            }
            None => pending += 1,
        }
    }
    types.join(",")
}

/// A type's text without spaces or package qualifiers (`*http.Request` -> `*Request`), with
/// `interface{}` spelled `any`.
fn normalize(t: &str) -> String {
    let t: String = t.chars().filter(|c| !c.is_whitespace()).collect();
    let t = t.replace("interface{}", "any");
    let mut out = String::with_capacity(t.len());
    let mut word = String::new();
    for c in t.chars() {
        if is_ident(c) {
            word.push(c);
            continue;
        }
        // A lower-case word followed by `.` is a package qualifier.
        if c == '.' && word.chars().next().is_some_and(|f| f.is_ascii_lowercase()) {
            word.clear();
            continue;
        }
        out.push_str(&word);
        word.clear();
        out.push(c);
    }
    out.push_str(&word);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn methods_match_by_name_and_types_not_by_name_alone() {
        assert_eq!(
            std_interface_methods("Err", "func (c *Context) Err() error"),
            ["context.Context.Err"]
        );
        assert_eq!(
            std_interface_methods("Read", "func (r *body) Read(p []byte) (n int, err error)"),
            ["io.Reader.Read"]
        );
        assert_eq!(std_interface_methods("Read", "Read([]byte) (int, error)"), ["io.Reader.Read"]);
        assert_eq!(
            std_interface_methods(
                "ServeHTTP",
                "func (e *Engine) ServeHTTP(w http.ResponseWriter, req *http.Request)"
            ),
            ["net/http.Handler.ServeHTTP"]
        );
        assert_eq!(
            std_interface_methods("Less", "func (s byName) Less(i, j int) bool"),
            ["sort.Interface.Less"]
        );
        assert_eq!(
            std_interface_methods("Value", "func (c *Context) Value(key interface{}) interface{}"),
            ["context.Context.Value"]
        );
        assert_eq!(
            std_interface_methods(
                "WriteString",
                "func (w *rw) WriteString(s string) (n int, err error)"
            ),
            ["io.StringWriter.WriteString"]
        );
        // Another signature of the name, or the name elsewhere in the signature: no match.
        assert!(std_interface_methods("Read", "func (r *T) Read(p []byte) error").is_empty());
        assert!(std_interface_methods("Err", "func (c *Context) Err(code int) error").is_empty());
        assert!(std_interface_methods("Close", "func (c *T) CloseAll() error").is_empty());
        assert!(std_interface_methods("Close", "func (c *T) Close(force bool) error").is_empty());
        assert_eq!(
            std_interface_methods("Close", "func (c *T) Close() error"),
            ["io.Closer.Close"]
        );
        assert!(std_interface_methods("Len", "func (l *list) Len() int64").is_empty());
    }

    #[test]
    fn examples_named_after_functions_types_and_methods() {
        let target =
            |kind, name, owner| RenameTarget { kind, name, owner, path: "net/http/server.go" };
        let f = examples(&target(NodeKind::Function, "Drain", None), "Empty").expect("a rule");
        let test = "net/http/example_test.go";
        assert_eq!(
            f.renamed("ExampleDrain", NodeKind::Function, test).as_deref(),
            Some("ExampleEmpty")
        );
        assert_eq!(
            f.renamed("ExampleDrain_second", NodeKind::Function, test).as_deref(),
            Some("ExampleEmpty_second")
        );
        // Another identifier's example, a method-style suffix of a function, another
        // directory, a file that is no test, a symbol that is no function: not named after it.
        assert_eq!(f.renamed("ExampleDrainAll", NodeKind::Function, test), None);
        assert_eq!(f.renamed("ExampleDrain_Method", NodeKind::Function, test), None);
        assert_eq!(f.renamed("ExampleDrain", NodeKind::Function, "net/example_test.go"), None);
        assert_eq!(f.renamed("ExampleDrain", NodeKind::Function, "net/http/example.go"), None);
        assert_eq!(f.renamed("ExampleDrain", NodeKind::Variable, test), None);
        let t = examples(&target(NodeKind::Struct, "Source", None), "Feed").expect("a rule");
        assert_eq!(
            t.renamed("ExampleSource_Read", NodeKind::Function, test).as_deref(),
            Some("ExampleFeed_Read")
        );
        let m =
            examples(&target(NodeKind::Method, "Read", Some("Source")), "Fill").expect("a rule");
        assert_eq!(m.prefix, "ExampleSource_Read");
        assert_eq!(
            m.renamed("ExampleSource_Read", NodeKind::Function, test).as_deref(),
            Some("ExampleSource_Fill")
        );
        assert_eq!(examples(&target(NodeKind::Property, "Name", Some("Source")), "Label"), None);
    }
}
