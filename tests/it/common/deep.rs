//! Every recursive construct the parsers descend into, written `depth` deep: what the fuzzers
//! insert and the hostile-input tests build with, so that a construct added here is tried by both.

/// A construct: its name, and TypeScript statements that nest it `depth` deep (for a config, a
/// route or a handler module alike).
pub struct Deep {
    pub name: &'static str,
    pub write: fn(usize) -> String,
}

fn around(before: &str, core: &str, after: &str, depth: usize) -> String {
    format!("{}{core}{}", before.repeat(depth), after.repeat(depth))
}

pub const CONSTRUCTS: &[Deep] = &[
    Deep { name: "arrays", write: |n| format!("const d = {};\n", around("[", "1", "]", n)) },
    Deep { name: "objects", write: |n| format!("const d = {};\n", around("{ a: ", "1", " }", n)) },
    Deep { name: "parentheses", write: |n| format!("const d = {};\n", around("(", "1", ")", n)) },
    Deep { name: "type arguments", write: |n| format!("type D = {};\n", around("Array<", "string", ">", n)) },
    Deep {
        name: "type arguments after a comma",
        write: |n| format!("type D = {};\n", around("Map<string, ", "1", ">", n)),
    },
    Deep { name: "array types", write: |n| format!("type D = string{};\n", "[]".repeat(n)) },
    Deep { name: "conditional types", write: |n| format!("type D<X> = {}1;\n", "X extends 1 ? 1 : ".repeat(n)) },
    Deep { name: "minus signs", write: |n| format!("const d = {}5;\n", "- ".repeat(n)) },
    Deep { name: "negations", write: |n| format!("const d = {}1;\n", "!".repeat(n)) },
    Deep { name: "typeof", write: |n| format!("const d = {}1;\n", "typeof ".repeat(n)) },
    Deep { name: "await", write: |n| format!("const d = {}1;\n", "await ".repeat(n)) },
    Deep { name: "exponents", write: |n| format!("const d = {}1;\n", "1 ** ".repeat(n)) },
    Deep { name: "members", write: |n| format!("const o: any = {{}};\nconst d = o{};\n", ".a".repeat(n)) },
    Deep { name: "optional members", write: |n| format!("const o: any = {{}};\nconst d = o{};\n", "?.a".repeat(n)) },
    Deep { name: "calls", write: |n| format!("const f: any = () => f;\nconst d = f{};\n", "()".repeat(n)) },
    Deep { name: "non-null assertions", write: |n| format!("const o: any = {{}};\nconst d = o{};\n", "!".repeat(n)) },
    Deep { name: "as", write: |n| format!("const d = 1{};\n", " as any".repeat(n)) },
    Deep { name: "type assertions", write: |n| format!("const d = {}1;\n", "<any>".repeat(n)) },
    Deep { name: "conditionals", write: |n| format!("const d = {}1;\n", "1 ? 1 : ".repeat(n)) },
    Deep { name: "assignments", write: |n| format!("let a: any;\nconst d = ({}1);\n", "a = ".repeat(n)) },
    Deep { name: "arrows", write: |n| format!("const d = {}1;\n", "x => ".repeat(n)) },
    Deep { name: "templates", write: |n| format!("const d = {};\n", around("`${", "1", "}`", n)) },
    Deep {
        name: "parenthesised members",
        write: |n| format!("const o: any = {{}};\nconst d = {};\n", around("(", "o", ").a", n)),
    },
    Deep { name: "nested ifs", write: |n| format!("let q = 0;\n{}q = 1;\n", "if (q)\n".repeat(n)) },
    Deep { name: "else ifs", write: |n| format!("let q = 0;\nif (q) {{}}\n{}", "else if (q) {}\n".repeat(n)) },
    Deep { name: "labels", write: |n| (0..n).map(|i| format!("l{i}:\n")).collect::<String>() + "for (;;) break;\n" },
];
