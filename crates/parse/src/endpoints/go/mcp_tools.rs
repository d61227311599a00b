//! MCP tools: mcp-go `s.AddTool(mcp.NewTool("name", opts...), h)` and the official SDK's
//! `mcp.AddTool(s, &mcp.Tool{...}, h)`, with their descriptions and input fields.

use super::*;

/// mcp-go options that declare an input field (`mcp.WithString("a", ...)`).
const MCP_GO_FIELDS: &[&str] = &[
    "WithString",
    "WithNumber",
    "WithInteger",
    "WithBoolean",
    "WithArray",
    "WithObject",
    "WithAny",
];

impl<'s, 'f, 't> Cx<'s, 'f, 't> {
    /// mcp-go `s.AddTool(mcp.NewTool("name", opts...), h)` (or a `tool` variable bound to a
    /// `NewTool` call in scope); the official SDK's `mcp.AddTool(s, &mcp.Tool{Name, ...}, h)`
    /// and `s.AddTool(&mcp.Tool{...}, h)`.
    pub(super) fn add_tool(&mut self, at: Node<'t>, a: &[Node<'t>]) {
        // The official SDK: a `Tool` struct literal argument.
        for (i, x) in a.iter().enumerate() {
            let lit = if x.kind() == "unary_expression" {
                x.child_by_field_name("operand")
            } else {
                Some(*x)
            };
            let Some(lit) = lit.filter(|l| l.kind() == "composite_literal") else { continue };
            let ty = lit.child_by_field_name("type").map_or("", |t| self.text(t));
            if !ty.ends_with("Tool") {
                continue;
            }
            let Some(name) = keyed_literal(lit, "Name", self.src) else { return };
            let description = keyed_literal(lit, "Description", self.src).map(str::to_string);
            let mut mw = Vec::new();
            let handler = match a.get(i + 1) {
                Some(h) => self.handler_of(*h, &mut mw, 0).0,
                None => Handler::Unknown,
            };
            let framework = if self.imports.go_sdk { "mcp-sdk" } else { "mcp-go" };
            let mut ep = tool(framework, name.to_string(), handler);
            ep.description = description;
            self.push(ep, at);
            return;
        }
        let [t, h] = a else { return };
        let new_tool = match t.kind() {
            "call_expression" => Some(*t),
            "identifier" => match self.lookup(self.text(*t)) {
                Some(Binding::Tool(n)) => Some(*n),
                _ => None,
            },
            _ => None,
        };
        let Some(new_tool) = new_tool else { return };
        let is_new_tool = new_tool
            .child_by_field_name("function")
            .and_then(|f| callee_of(f, self.src))
            .is_some_and(|c| c.name == "NewTool");
        if !is_new_tool {
            return;
        }
        let opts = call_args(new_tool);
        let Some(name) = opts.first().and_then(|x| literal(*x, self.src)) else { return };
        let mut description = None;
        let mut fields = Vec::new();
        for o in opts.iter().skip(1) {
            if o.kind() != "call_expression" {
                continue;
            }
            let Some(c) = o.child_by_field_name("function").and_then(|f| callee_of(f, self.src))
            else {
                continue;
            };
            let first = call_args(*o).first().and_then(|x| literal(*x, self.src));
            if c.name == "WithDescription" {
                description = first.map(str::to_string);
            } else if MCP_GO_FIELDS.contains(&c.name.as_str()) {
                fields.extend(first.map(str::to_string));
            }
        }
        let mut mw = Vec::new();
        let (handler, _) = self.handler_of(*h, &mut mw, 0);
        let mut ep = tool("mcp-go", name.to_string(), handler);
        ep.description = description;
        ep.fields = fields;
        self.push(ep, at);
    }
}
