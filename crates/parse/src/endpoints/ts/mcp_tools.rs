//! MCP/RPC tool registrations (`server.tool`, `registerTool`, tool lists) with their names and
//! input fields.

use super::*;

impl<'s, 'f, 't> Cx<'s, 'f, 't> {
    /// The input field names a schema declares: a zod raw shape `{ a: z.string() }`,
    /// `z.object({...})` (with any `.strict()` / `.describe()` after it), a JSON Schema
    /// `{ type: 'object', properties: {...} }`, or a top-level constant holding one of those.
    pub(super) fn schema_fields(&mut self, n: Node<'t>, depth: u32) -> Vec<String> {
        if depth > MAX_DEPTH {
            return Vec::new();
        }
        let n = unwrap_expr(n);
        match n.kind() {
            "object" => match member(n, "properties", self.src).map(unwrap_expr) {
                Some(p) if p.kind() == "object" && member(n, "type", self.src).is_some() => {
                    object_keys(p, self.src)
                }
                _ => object_keys(n, self.src),
            },
            "call_expression" => {
                let Some(f) = n.child_by_field_name("function").map(unwrap_expr) else {
                    return Vec::new();
                };
                if f.kind() != "member_expression" {
                    return Vec::new();
                }
                let prop = f.child_by_field_name("property").map_or("", |p| self.text(p));
                if matches!(prop, "object" | "strictObject" | "looseObject")
                    && let Some(first) = args(n).first()
                {
                    return self.schema_fields(*first, depth + 1);
                }
                match f.child_by_field_name("object") {
                    Some(o) => self.schema_fields(o, depth + 1),
                    None => Vec::new(),
                }
            }
            "identifier" => match self.decl(self.text(n)) {
                Some(v) if v.id() != n.id() => self.schema_fields(v, depth + 1),
                _ => Vec::new(),
            },
            // `Schema.shape`
            "member_expression" => match n.child_by_field_name("object") {
                Some(o) => self.schema_fields(o, depth + 1),
                None => Vec::new(),
            },
            _ => Vec::new(),
        }
    }

    /// The value a top-level constant holds when `n` names one (`const name = 'echo'`,
    /// `const config = {...}`), else `n` unwrapped.
    pub(super) fn constant(&mut self, n: Node<'t>) -> Node<'t> {
        let n = unwrap_expr(n);
        if n.kind() != "identifier" {
            return n;
        }
        match self.decl(self.text(n)) {
            Some(v) if !is_function_like(v.kind()) => v,
            _ => n,
        }
    }

    /// A string literal, directly or through a top-level constant: `'echo'`, `NAME`,
    /// `TOOLS.list_items` / `TOOLS['list_items']` (a property of a same-file constant object,
    /// nested objects included), `Tools.ListItems` (a same-file enum member).
    pub(super) fn string_value(&mut self, n: Node<'t>) -> Option<&'s str> {
        self.string_value_at(n, 0)
    }

    pub(super) fn string_value_at(&mut self, n: Node<'t>, depth: u32) -> Option<&'s str> {
        if depth > MAX_DEPTH {
            return None;
        }
        let v = self.constant(n);
        if let Some(s) = literal(v, self.src) {
            return Some(s);
        }
        let (object, key) = match v.kind() {
            "member_expression" => {
                let key = v.child_by_field_name("property")?;
                (v.child_by_field_name("object")?, self.text(key))
            }
            "subscript_expression" => {
                let key = literal(v.child_by_field_name("index")?, self.src)?;
                (v.child_by_field_name("object")?, key)
            }
            _ => return None,
        };
        let holder = self.object_value(object, depth + 1)?;
        match holder.kind() {
            "object" => {
                let value = member(holder, key, self.src)?;
                self.string_value_at(value, depth + 1)
            }
            "enum_declaration" => {
                let body = holder.child_by_field_name("body")?;
                named_children(body).into_iter().find_map(|m| {
                    let name = m.child_by_field_name("name")?;
                    if m.kind() != "enum_assignment" || prop_name(name, self.src) != key {
                        return None;
                    }
                    literal(m.child_by_field_name("value")?, self.src)
                })
            }
            _ => None,
        }
    }

    /// The object literal or enum an expression names: a same-file constant, or a property
    /// of one (`TOOLS.admin` for `const TOOLS = { admin: {...} }`).
    pub(super) fn object_value(&mut self, n: Node<'t>, depth: u32) -> Option<Node<'t>> {
        if depth > MAX_DEPTH {
            return None;
        }
        let v = self.constant(n);
        match v.kind() {
            "object" | "enum_declaration" => Some(v),
            "member_expression" => {
                let key = v.child_by_field_name("property")?;
                let key = self.text(key);
                let holder = self.object_value(v.child_by_field_name("object")?, depth + 1)?;
                (holder.kind() == "object")
                    .then(|| member(holder, key, self.src))
                    .flatten()
                    .map(unwrap_expr)
                    .filter(|m| m.kind() == "object")
            }
            _ => None,
        }
    }

    /// `server.tool('name', 'description'?, {shape}?, {annotations}?, handler)`.
    pub(super) fn sdk_tool(&mut self, prop: Node<'t>, a: &[Node<'t>]) {
        let Some(&first) = a.first() else { return };
        let (name, name_is_expr) = self.tool_name(first);
        let [_, middle @ .., last] = a else { return };
        if !is_handler_like(unwrap_expr(*last).kind()) {
            return;
        }
        let mut description = None;
        let mut fields = None;
        for m in middle {
            if let Some(d) = self.string_value(*m) {
                if description.is_none() && fields.is_none() {
                    description = Some(d.to_string());
                }
            } else if fields.is_none() {
                fields = Some(self.schema_fields(*m, 0));
            }
        }
        let (handler, _) = self.handler_of(*last, 0);
        let mut ep = tool("mcp-sdk", name, handler);
        ep.name_is_expr = name_is_expr;
        ep.description = description;
        ep.fields = fields.unwrap_or_default();
        self.push(ep, prop, None);
    }

    /// A tool's name: its value when it can be evaluated, else the expression as written
    /// (whitespace collapsed, cut at 120 characters), flagged: a registration is never dropped
    /// for a name we cannot read.
    pub(super) fn tool_name(&mut self, n: Node<'t>) -> (String, bool) {
        match self.string_value(n) {
            Some(v) => (v.to_string(), false),
            None => {
                let text: String = self
                    .text(n)
                    .split_whitespace()
                    .collect::<Vec<_>>()
                    .join(" ")
                    .chars()
                    .take(120)
                    .collect();
                (text, true)
            }
        }
    }

    /// `server.registerTool('name', { description, inputSchema }, handler)`.
    pub(super) fn register_tool(&mut self, prop: Node<'t>, a: &[Node<'t>]) {
        let [name, config, handler] = a else { return };
        let (name, name_is_expr) = self.tool_name(*name);
        let config = self.constant(*config);
        if config.kind() != "object" {
            return;
        }
        let description =
            member(config, "description", self.src).and_then(|d| self.string_value(d));
        let fields = match member(config, "inputSchema", self.src) {
            Some(s) => self.schema_fields(s, 0),
            None => Vec::new(),
        };
        let (handler, _) = self.handler_of(*handler, 0);
        let mut ep = tool("mcp-sdk", name, handler);
        ep.name_is_expr = name_is_expr;
        ep.description = description.map(str::to_string);
        ep.fields = fields;
        self.push(ep, prop, None);
    }

    /// fastmcp: `server.addTool({ name, description, parameters: z.object({...}), execute })`.
    pub(super) fn fastmcp_tool(&mut self, prop: Node<'t>, a: &[Node<'t>]) {
        let [o] = a else { return };
        let o = self.constant(*o);
        if o.kind() != "object" {
            return;
        }
        let Some(name) = member(o, "name", self.src).and_then(|n| self.string_value(n)) else {
            return;
        };
        let execute = member(o, "execute", self.src);
        let parameters = member(o, "parameters", self.src);
        if execute.is_none() && parameters.is_none() {
            return;
        }
        let description = member(o, "description", self.src).and_then(|d| self.string_value(d));
        let fields = match parameters {
            Some(p) => self.schema_fields(p, 0),
            None => Vec::new(),
        };
        let handler = match execute {
            Some(e) => self.handler_of(e, 0).0,
            None => Handler::Unknown,
        };
        let mut ep = tool("fastmcp", name.to_string(), handler);
        ep.description = description.map(str::to_string);
        ep.fields = fields;
        self.push(ep, prop, None);
    }

    /// `server.setRequestHandler(CallToolRequestSchema, async (req) => { switch
    /// (req.params.name) { case 'add': ... } })`: one tool per literal the tool name is
    /// compared with (`case 'x'`, `name === 'x'`).
    pub(super) fn low_level_tools(&mut self, prop: Node<'t>, a: &[Node<'t>]) {
        let [schema, h] = a else { return };
        if !dotted(self.text(*schema)).ends_with("CallToolRequestSchema") {
            return;
        }
        let (handler, body) = self.handler_of(*h, 0);
        // One dispatch function serves every tool: its code stays inline in `enclosing`.
        self.pending_inline = None;
        let handler = match handler {
            // The dispatch is written in place: the tools' code is inline in `enclosing`.
            Handler::Symbol(_) => Handler::Inline,
            h => h,
        };
        let Some(body) = body else { return };
        let enclosing = self.enclosing.of(start_line(prop), start_col(prop));
        let mut seen: HashSet<&'s str> = HashSet::new();
        let mut found: Vec<(&'s str, Node<'t>)> = Vec::new();
        let mut stack = vec![body];
        let mut visited = 0usize;
        while let Some(n) = stack.pop() {
            visited += 1;
            if visited > MAX_SCAN {
                break;
            }
            match n.kind() {
                "switch_statement" => {
                    let on = n.child_by_field_name("value").map_or("", |v| self.text(v));
                    let on = on.trim_matches(|c: char| c == '(' || c == ')' || c.is_whitespace());
                    if on.to_ascii_lowercase().ends_with("name")
                        && let Some(b) = n.child_by_field_name("body")
                    {
                        for case in named_children(b) {
                            if case.kind() == "switch_case"
                                && let Some(v) = case.child_by_field_name("value")
                                && let Some(lit) = literal(v, self.src)
                            {
                                found.push((lit, case));
                            }
                        }
                    }
                }
                "binary_expression" => {
                    let op = n.child_by_field_name("operator").map_or("", |o| self.text(o));
                    if let (true, Some(l), Some(r)) = (
                        op == "===" || op == "==",
                        n.child_by_field_name("left"),
                        n.child_by_field_name("right"),
                    ) {
                        let (lit, other) = match (literal(l, self.src), literal(r, self.src)) {
                            (Some(x), None) => (Some(x), r),
                            (None, Some(x)) => (Some(x), l),
                            _ => (None, l),
                        };
                        if let Some(lit) = lit
                            && self.text(other).to_ascii_lowercase().ends_with("name")
                        {
                            found.push((lit, n));
                        }
                    }
                }
                _ => {}
            }
            let kids = named_children(n);
            stack.extend(kids.into_iter().rev());
        }
        // Source order, one tool per name.
        found.sort_by_key(|(_, n)| n.start_byte());
        for (name, at) in found {
            if !seen.insert(name) {
                continue;
            }
            let ep = tool("mcp-sdk", name.to_string(), handler.clone());
            self.low_level.push(self.out.len());
            self.push(ep, at, Some(enclosing));
        }
    }

    /// Descriptions and fields of low-level tools from the literal tool list of the same file
    /// (`{ name: 'add', description: '...', inputSchema: { properties: {...} } }`).
    pub(super) fn fill_listed_tools(&mut self) {
        if self.low_level.is_empty() {
            return;
        }
        let mut listed: HashMap<&'s str, (Option<&'s str>, Vec<String>)> = HashMap::new();
        let mut cursor = self.root.walk();
        'walk: loop {
            let n = cursor.node();
            if n.kind() == "object"
                && let Some(name) = member(n, "name", self.src).and_then(|v| literal(v, self.src))
                && let schema = member(n, "inputSchema", self.src)
                && let description =
                    member(n, "description", self.src).and_then(|d| literal(d, self.src))
                && (schema.is_some() || description.is_some())
            {
                let fields = match schema {
                    Some(s) => self.schema_fields(s, 0),
                    None => Vec::new(),
                };
                listed.entry(name).or_insert((description, fields));
            }
            if cursor.goto_first_child() {
                continue;
            }
            while !cursor.goto_next_sibling() {
                if !cursor.goto_parent() {
                    break 'walk;
                }
            }
        }
        for &i in &self.low_level {
            let Some(f) = self.out.get_mut(i) else { continue };
            if let Some((d, fields)) = listed.get(f.ep.name.as_str()) {
                if f.ep.description.is_none() {
                    f.ep.description = d.map(str::to_string);
                }
                if f.ep.fields.is_empty() {
                    f.ep.fields = fields.clone();
                }
            }
        }
    }
}
