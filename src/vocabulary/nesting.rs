//! How deeply a JavaScript or TypeScript text nests, measured without parsing it. The parsers
//! agent-bundle runs (swc for configs and routes, oxc inside the bundler) and the visitors after them
//! recurse once per level of every recursive construct, not only brackets: type arguments
//! (`Array<Array<…>>`), prefix operators (`!!!…1`, `- - -…5`), right-associative and postfix chains
//! (`a = b = …`, `x => y => …`, `c ? d : e ? …`, `a ** b ** …`, `o.a.b.…`, `f()()…`, `x as T as …`),
//! template literals nested through `${…}` and JSX elements. A text nested thousands deep in any of
//! them would overflow the parser's stack (the process aborts) or, for some, take time that grows
//! with the square of the depth.
//!
//! The measure is an upper bound of the syntax tree's depth that is cheap to take (one pass, no
//! allocation but a stack of open constructs): every open bracket, type argument list, template and
//! element counts one level, and within one expression every chaining operator counts one more,
//! until the expression ends (at `;`, `,`, or a line break where JavaScript inserts a semicolon).
//! Left-associative binary operators (`a + b + …`) are not counted: the parsers read those in a
//! loop. Strings, comments, regular expressions and JSX text are skipped; a text that is not valid
//! JavaScript at all is measured as well as its tokens allow, which can only count high.

/// How deeply a config or route module may nest: far past any real one (the deepest of 6,919 modules
/// of popular npm packages measures 128), far below what swc's recursion survives on the parse
/// thread's stack (`extract::with_parse_stack`).
pub const MAX_CONFIG_NESTING: usize = 512;

/// How deeply a module the bundler parses may nest: the bundler's threads and rayon's have the
/// stack for it (`bundle/run.rs`), and the slowest construct at this depth (statements nested in
/// `if`s) parses in a few seconds.
pub const MAX_MODULE_NESTING: usize = 4096;

/// What nests too deep, for the message.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Construct {
    /// `(`, `[` and `{`.
    Brackets,
    /// `<…>`: type arguments and parameters, or type assertions.
    TypeArguments,
    /// Prefix operators and chains: `!`, `-`, `typeof`, `.`, calls, `=>`, `?`, `=`, `**`, `as`.
    Operators,
    /// Template literals nested through `${…}`.
    Templates,
    /// JSX elements.
    Elements,
}

impl Construct {
    /// The construct in words, as a message names it ("its … nest deeper than …").
    pub fn describe(self) -> &'static str {
        match self {
            Construct::Brackets => "brackets (`(`, `[`, `{`)",
            Construct::TypeArguments => "type arguments (`<…>`)",
            Construct::Operators => {
                "chained operators (prefix operators, `.`, calls, `=>`, `?`, `=`, `**`, `as`, `satisfies`)"
            }
            Construct::Templates => "template literals (`${…}`)",
            Construct::Elements => "JSX elements",
        }
    }
}

/// Where a text first nests past the limit, and in what.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TooDeep {
    /// The byte offset of the token that goes past the limit.
    pub offset: usize,
    pub construct: Construct,
}

/// Whether `<` where an operand starts opens a JSX element (`.jsx`, `.tsx`, and JavaScript files,
/// where it can mean nothing else) or a type assertion or type parameter list (`.ts`).
pub fn jsx_in(path: &str) -> bool {
    !(path.ends_with(".ts") || path.ends_with(".mts") || path.ends_with(".cts"))
}

/// The first place where `text` nests deeper than `limit`, or `None` when it never does. `jsx`:
/// see [`jsx_in`].
pub fn past_limit(text: &str, jsx: bool, limit: usize) -> Option<TooDeep> {
    Scanner {
        bytes: text.as_bytes(),
        jsx,
        limit,
        index: 0,
        frames: Vec::new(),
        counts: Counts::default(),
        conditionals: Vec::new(),
    }
    .run()
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    Paren,
    Square,
    Brace,
    /// `<…>` in code: type arguments, or a comparison's `<` until the expression ends.
    Angle,
    /// A template literal's text.
    TemplateText,
    /// `${ … }` inside a template literal.
    TemplateCode,
    /// A JSX opening tag, up to its `>` or `/>`.
    JsxTag,
    /// A JSX element's children, up to its closing tag.
    JsxChildren,
    /// `{ … }` inside a JSX tag or children.
    JsxCode,
}

impl Kind {
    fn construct(self) -> Construct {
        match self {
            Kind::Paren | Kind::Square | Kind::Brace | Kind::JsxCode => Construct::Brackets,
            Kind::Angle => Construct::TypeArguments,
            Kind::TemplateText | Kind::TemplateCode => Construct::Templates,
            Kind::JsxTag | Kind::JsxChildren => Construct::Elements,
        }
    }
}

/// What is counted inside the innermost open construct.
#[derive(Clone, Copy, Debug, Default)]
struct Counts {
    /// The depth at which the construct's contents start.
    base: usize,
    /// Chaining operators counted in the current expression.
    chain: usize,
    /// Postfix operators (`.`, calls, indexes, `!`) on the current operand: they nest its tree, and
    /// end with it.
    postfix: usize,
    /// Where this construct's conditionals start in [`Scanner::conditionals`].
    conditionals_from: usize,
    /// Brackets open in JSX text or a tag, where they are not code (counted, to stay an upper bound).
    loose: usize,
}

/// An open construct, with what the enclosing one had counted when it opened.
#[derive(Clone, Copy, Debug)]
struct Frame {
    kind: Kind,
    /// A statement's condition (`if (…)`): the statement goes on after it, on any line.
    condition: bool,
    /// `<…>` holding `extends`: a conditional type's `?` and `:` belong to it.
    extends: bool,
    /// `<T>` before an operand (a type assertion, or type parameters): an operand follows it.
    before_operand: bool,
    outer: Counts,
}

/// How a code token leaves the expression: whether an operand just ended (so `(` is a call, `<` a
/// comparison or type arguments, `/` a division) and whether a line break came before the next one.
#[derive(Clone, Copy, Debug, Default)]
struct Position {
    operand_end: bool,
    line_break: bool,
    after_dot: bool,
    /// The last word was `if`, `while`, `for` or `with`: a `(` now opens its condition.
    condition_word: bool,
    /// A statement's condition just closed: its body follows, whatever the line.
    after_condition: bool,
}

struct Scanner<'t> {
    bytes: &'t [u8],
    jsx: bool,
    limit: usize,
    index: usize,
    frames: Vec<Frame>,
    counts: Counts,
    /// The conditionals (`c ? a : b`) open in the expressions being read, innermost last: `true`
    /// while one waits for its `:`, `false` in its second branch. Each is a level until its
    /// expression ends or a later `:` shows it ended.
    conditionals: Vec<bool>,
}

/// Words after which an operand starts (so `/` begins a regular expression, `<` an element, `(` is
/// not a call). Those of them that are prefix operators are in [`PREFIX_WORDS`] too.
const OPERAND_STARTERS: &[&str] = &[
    "return",
    "case",
    "else",
    "do",
    "throw",
    "if",
    "while",
    "for",
    "with",
    "switch",
    "catch",
    "in",
    "of",
    "instanceof",
    "extends",
    "export",
    "default",
    "typeof",
    "void",
    "delete",
    "await",
    "new",
    "yield",
    "keyof",
    "infer",
    "readonly",
    "unique",
    "is",
    "asserts",
];
/// Words whose statement holds another statement (`if (a) if (b) …`, `else if …`), each a level.
const STATEMENT_WORDS: &[&str] = &["if", "else", "while", "for", "with", "do"];
/// Words followed by a condition in parentheses, after which their statement goes on.
const CONDITION_WORDS: &[&str] = &["if", "while", "for", "with"];
/// Words that apply to the operand after them, each a level of the tree.
const PREFIX_WORDS: &[&str] =
    &["typeof", "void", "delete", "await", "new", "yield", "keyof", "infer", "readonly", "unique"];
/// Words that apply to the operand before them and the type after (`x as T`).
const POSTFIX_WORDS: &[&str] = &["as", "satisfies"];

impl Scanner<'_> {
    fn run(mut self) -> Option<TooDeep> {
        let mut at = Position::default();
        while self.index < self.bytes.len() {
            let before = self.index;
            let outcome = match self.top() {
                Some(Kind::TemplateText) => self.template_text(&mut at),
                Some(Kind::JsxTag) => self.jsx_tag(&mut at),
                Some(Kind::JsxChildren) => self.jsx_children(&mut at),
                _ => self.code(&mut at),
            };
            if let Err(too_deep) = outcome {
                return Some(too_deep);
            }
            // Every step takes at least one byte: the scan ends, in one pass.
            assert!(self.index > before, "the nesting scan stood still at byte {before}");
        }
        None
    }

    /// The length of the line terminator at `index`, if one is there: JavaScript ends a line, and a
    /// `//` comment, at `\n`, `\r`, U+2028 and U+2029.
    fn line_terminator(&self, index: usize) -> Option<usize> {
        match self.bytes[index..] {
            [b'\n' | b'\r', ..] => Some(1),
            [0xe2, 0x80, 0xa8 | 0xa9, ..] => Some(3),
            _ => None,
        }
    }

    fn peek(&self, ahead: usize) -> u8 {
        self.bytes.get(self.index + ahead).copied().unwrap_or(0)
    }

    fn depth(&self) -> usize {
        let counts = &self.counts;
        let conditionals = self.conditionals.len() - counts.conditionals_from;
        counts.base + counts.chain + counts.postfix + counts.loose + conditionals
    }

    fn open(&mut self, kind: Kind, offset: usize) -> Result<(), TooDeep> {
        let depth = self.depth() + 1;
        self.frames.push(Frame { kind, condition: false, extends: false, before_operand: false, outer: self.counts });
        self.counts = Counts { base: depth, conditionals_from: self.conditionals.len(), ..Counts::default() };
        self.check(offset, kind.construct())
    }

    fn close(&mut self) -> Option<Frame> {
        let frame = self.frames.pop()?;
        self.conditionals.truncate(self.counts.conditionals_from);
        self.counts = frame.outer;
        Some(frame)
    }

    fn check(&self, offset: usize, construct: Construct) -> Result<(), TooDeep> {
        if self.depth() > self.limit { Err(TooDeep { offset, construct }) } else { Ok(()) }
    }

    /// One more chaining operator in the current expression.
    fn link(&mut self, offset: usize) -> Result<(), TooDeep> {
        self.counts.chain += 1;
        self.check(offset, Construct::Operators)
    }

    /// One more postfix operator on the current operand.
    fn postfix(&mut self, offset: usize) -> Result<(), TooDeep> {
        self.counts.postfix += 1;
        self.check(offset, Construct::Operators)
    }

    /// A new operand starts: the postfix operators of the last one are done with.
    fn new_operand(&mut self) {
        self.counts.postfix = 0;
    }

    /// `<` still open that hold no `extends` were comparisons: an operator no type has ends them.
    fn close_comparisons(&mut self) {
        while self.frames.last().is_some_and(|frame| frame.kind == Kind::Angle && !frame.extends) {
            self.close();
        }
    }

    fn top(&self) -> Option<Kind> {
        self.frames.last().map(|frame| frame.kind)
    }

    /// The `<` still open in the current expression end with it: they were comparisons, or the
    /// parser stops at them.
    fn close_angles(&mut self) {
        while self.top() == Some(Kind::Angle) {
            self.close();
        }
    }

    /// The expression ends: its operators are done with.
    fn end_expression(&mut self) {
        self.close_angles();
        self.end_item();
    }

    /// An item of a list (`,`) or an expression ends: its chain, postfix operators and
    /// conditionals are done with; the `<` before it stay open (`Map<K, V>`).
    fn end_item(&mut self) {
        self.counts.chain = 0;
        self.counts.postfix = 0;
        self.conditionals.truncate(self.counts.conditionals_from);
    }

    /// An operand starts (a name, a literal, a parenthesis): the last one's postfix operators are
    /// done with; and after a line break that follows an operand, JavaScript inserts a semicolon,
    /// so the expression before has ended.
    fn operand(&mut self, at: &Position) {
        if at.line_break && at.operand_end && !at.after_dot && !at.after_condition {
            self.end_expression();
        }
        self.new_operand();
    }

    fn code(&mut self, at: &mut Position) -> Result<(), TooDeep> {
        let start = self.index;
        let byte = self.bytes[start];
        let next = self.peek(1);
        if let Some(length) = self.line_terminator(start) {
            at.line_break = true;
            self.index += length;
            return Ok(());
        }
        match byte {
            b' ' | b'\t' | 0x0b | 0x0c => {
                self.index += 1;
                return Ok(());
            }
            b'/' if next == b'/' => {
                while self.index < self.bytes.len() && self.line_terminator(self.index).is_none() {
                    self.index += 1;
                }
                return Ok(());
            }
            b'/' if next == b'*' => {
                self.index += 2;
                while self.index < self.bytes.len() && !(self.bytes[self.index] == b'*' && self.peek(1) == b'/') {
                    at.line_break |= self.line_terminator(self.index).is_some();
                    self.index += 1;
                }
                self.index += 2;
                return Ok(());
            }
            _ => {}
        }
        let line_break = at.line_break;
        at.line_break = false;
        let here = Position {
            operand_end: at.operand_end,
            line_break,
            after_dot: std::mem::take(&mut at.after_dot),
            condition_word: std::mem::take(&mut at.condition_word),
            after_condition: std::mem::take(&mut at.after_condition),
        };
        // What ends an operand sets this back.
        at.operand_end = false;
        match byte {
            b'/' if !here.operand_end => {
                self.operand(&here);
                self.skip_regex();
                at.operand_end = true;
            }
            b'\'' | b'"' => {
                self.operand(&here);
                self.skip_string(byte, false);
                at.operand_end = true;
            }
            b'`' => {
                if here.operand_end {
                    self.postfix(start)?; // a tagged template
                } else {
                    self.operand(&here);
                }
                self.index += 1;
                self.open(Kind::TemplateText, start)?;
            }
            b'0'..=b'9' => {
                self.operand(&here);
                self.skip_number();
                at.operand_end = true;
            }
            b'.' if next.is_ascii_digit() => {
                self.operand(&here);
                self.skip_number();
                at.operand_end = true;
            }
            b'.' if next == b'.' && self.peek(2) == b'.' => {
                self.index += 3;
                self.link(start)?;
            }
            b'.' => {
                self.index += 1;
                self.postfix(start)?;
                at.after_dot = true;
            }
            b'(' | b'[' => {
                if here.operand_end {
                    self.postfix(start)?; // a call or an index
                } else {
                    self.operand(&here);
                }
                self.index += 1;
                self.open(if byte == b'(' { Kind::Paren } else { Kind::Square }, start)?;
                if let Some(frame) = self.frames.last_mut() {
                    frame.condition = here.condition_word && byte == b'(';
                }
            }
            b'{' => {
                self.index += 1;
                self.open(Kind::Brace, start)?;
            }
            b')' | b']' | b'}' => {
                self.index += 1;
                self.close_angles();
                match self.top() {
                    Some(Kind::Paren | Kind::Square | Kind::Brace) => {
                        at.after_condition = self.close().is_some_and(|frame| frame.condition);
                    }
                    // `}` ends `${`: the template's text goes on; or a JSX expression: its tag or
                    // children go on.
                    Some(Kind::TemplateCode | Kind::JsxCode) if byte == b'}' => {
                        self.close();
                    }
                    _ => {}
                }
                at.operand_end = true;
            }
            b'<' => self.less_than(&here, at)?,
            b'>' => {
                let run = self.bytes[start..].iter().take(3).take_while(|&&b| b == b'>').count();
                self.index += run;
                if self.peek(0) == b'=' {
                    self.index += 1;
                    self.close_comparisons();
                    if run > 1 {
                        self.link(start)?; // `>>=`
                    }
                } else if self.top() == Some(Kind::Angle) {
                    let mut before_operand = false;
                    for _ in 0..run {
                        if self.top() == Some(Kind::Angle) {
                            before_operand = self.close().is_some_and(|frame| frame.before_operand);
                        }
                    }
                    at.operand_end = !before_operand;
                }
            }
            b'=' if next == b'>' => {
                self.index += 2;
                self.link(start)?;
            }
            b'=' | b'!' if next == b'=' => {
                self.index += if self.peek(2) == b'=' { 3 } else { 2 };
                self.close_comparisons();
            }
            b'=' => {
                self.index += 1;
                self.link(start)?;
            }
            // A non-null assertion (`x!`) applies to the operand before it.
            b'!' if here.operand_end => {
                self.index += 1;
                self.postfix(start)?;
                at.operand_end = true;
            }
            b'!' | b'~' => {
                self.index += 1;
                self.link(start)?;
            }
            b'?' if next == b'.' && !self.peek(2).is_ascii_digit() => {
                self.index += 2;
                self.postfix(start)?;
                at.after_dot = true;
            }
            b'?' if next == b'?' => {
                self.index += 2;
                self.close_comparisons();
                if self.peek(0) == b'=' {
                    self.index += 1;
                    self.link(start)?;
                }
            }
            // A conditional (`c ? a : b`), or a conditional type's when its `<…>` holds `extends`:
            // a level until its `:`.
            b'?' => {
                self.index += 1;
                self.close_comparisons();
                self.conditionals.push(true);
                self.new_operand();
                self.check(start, Construct::Operators)?;
            }
            // A conditional's `:`: those in their second branch before it have ended.
            b':' if self.conditionals[self.counts.conditionals_from..].contains(&true) => {
                self.index += 1;
                self.close_comparisons();
                while self.conditionals.last() == Some(&false) {
                    self.conditionals.pop();
                }
                if let Some(waiting) = self.conditionals.last_mut() {
                    *waiting = false;
                }
                self.new_operand();
            }
            // Labels (`a: b: …` nest statements), `case x:`, annotations, keys.
            b':' => {
                self.index += 1;
                self.link(start)?;
            }
            b'*' if next == b'*' => {
                self.index += 2;
                if self.peek(0) == b'=' {
                    self.index += 1;
                }
                self.link(start)?;
            }
            b'+' | b'-' if next == byte => {
                self.index += 2;
                if here.operand_end {
                    at.operand_end = true; // postfix
                } else {
                    self.link(start)?;
                }
            }
            b'+' | b'-' if !here.operand_end => {
                self.index += 1;
                self.link(start)?;
            }
            b'*' | b'/' | b'%' | b'&' | b'|' | b'^' | b'+' | b'-' => {
                self.index += 1;
                let doubled = (byte == b'&' || byte == b'|') && next == byte;
                if doubled {
                    self.index += 1;
                }
                if self.peek(0) == b'=' {
                    self.index += 1;
                    self.link(start)?;
                } else if doubled || !matches!(byte, b'&' | b'|') {
                    // No type has this operator: a `<` before it was a comparison.
                    self.close_comparisons();
                }
            }
            b';' => {
                self.index += 1;
                self.end_expression();
            }
            b',' => {
                self.index += 1;
                self.end_item();
            }
            _ if is_word_start(byte) => self.word(&here, at)?,
            _ => self.index += 1,
        }
        Ok(())
    }

    fn word(&mut self, here: &Position, at: &mut Position) -> Result<(), TooDeep> {
        let start = self.index;
        self.index += 1; // the first byte, which may be one that only starts a word (`#`)
        self.skip_word();
        let word = std::str::from_utf8(&self.bytes[start..self.index]).unwrap_or("");
        if here.after_dot {
            at.operand_end = true; // a member's name, whatever word it is
            return Ok(());
        }
        if here.operand_end && POSTFIX_WORDS.contains(&word) {
            return self.link(start);
        }
        // `else` goes on with its `if`, on whatever line it stands.
        if word != "else" {
            self.operand(here);
        }
        if word == "extends"
            && let Some(frame) = self.frames.last_mut()
            && frame.kind == Kind::Angle
        {
            frame.extends = true;
        }
        if matches!(word, "instanceof" | "in") {
            self.close_comparisons();
        }
        if PREFIX_WORDS.contains(&word) || STATEMENT_WORDS.contains(&word) {
            self.link(start)?;
        }
        at.condition_word = CONDITION_WORDS.contains(&word);
        at.operand_end = !OPERAND_STARTERS.contains(&word);
        Ok(())
    }

    fn less_than(&mut self, here: &Position, at: &mut Position) -> Result<(), TooDeep> {
        let start = self.index;
        if here.operand_end {
            // `<<`, `<=`, `<<=` are binary operators; a lone `<` opens type arguments or is a
            // comparison, which the end of the expression closes.
            if self.peek(1) == b'<' || self.peek(1) == b'=' {
                self.index += if self.peek(1) == b'<' && self.peek(2) == b'=' { 3 } else { 2 };
                self.close_comparisons();
                return Ok(());
            }
            self.index += 1;
            return self.open(Kind::Angle, start);
        }
        self.operand(here);
        if self.jsx && !self.generic_parameters() {
            return self.element(at);
        }
        // A type assertion `<T>x`, which applies to the operand after it, or type parameters
        // `<T,>(x) => x`.
        self.link(start)?;
        self.index += 1;
        self.open(Kind::Angle, start)?;
        if let Some(frame) = self.frames.last_mut() {
            frame.before_operand = true;
        }
        Ok(())
    }

    /// Whether the `<` at the index opens type parameters (`<T,>`, `<T extends U>`) rather than an
    /// element, in a JSX text.
    fn generic_parameters(&self) -> bool {
        let mut index = self.index + 1;
        let skip_space = |mut index: usize| {
            while self.bytes.get(index).is_some_and(u8::is_ascii_whitespace) {
                index += 1;
            }
            index
        };
        index = skip_space(index);
        if !self.bytes.get(index).copied().is_some_and(is_word_start) {
            return false;
        }
        while self.bytes.get(index).copied().is_some_and(is_word_byte) {
            index += 1;
        }
        index = skip_space(index);
        self.bytes.get(index) == Some(&b',') || self.bytes[index..].starts_with(b"extends ")
    }

    /// A JSX element opens at the index (`<name …>` or `<>`).
    fn element(&mut self, at: &mut Position) -> Result<(), TooDeep> {
        let start = self.index;
        self.index += 1;
        if self.peek(0) == b'>' {
            self.index += 1;
            return self.open(Kind::JsxChildren, start);
        }
        at.operand_end = false;
        self.open(Kind::JsxTag, start)
    }

    fn jsx_tag(&mut self, at: &mut Position) -> Result<(), TooDeep> {
        let start = self.index;
        match self.bytes[start] {
            b'{' => {
                self.index += 1;
                at.operand_end = false;
                self.open(Kind::JsxCode, start)?;
            }
            quote @ (b'"' | b'\'') => self.skip_string(quote, true),
            b'/' if self.peek(1) == b'>' => {
                self.index += 2;
                self.close();
                at.operand_end = true;
            }
            b'>' => {
                self.index += 1;
                if let Some(frame) = self.frames.last_mut() {
                    frame.kind = Kind::JsxChildren;
                }
            }
            byte => self.loose_bracket(byte)?,
        }
        Ok(())
    }

    fn jsx_children(&mut self, at: &mut Position) -> Result<(), TooDeep> {
        let start = self.index;
        match self.bytes[start] {
            b'{' => {
                self.index += 1;
                at.operand_end = false;
                self.open(Kind::JsxCode, start)?;
            }
            b'<' => {
                let mut index = start + 1;
                while self.bytes.get(index).is_some_and(u8::is_ascii_whitespace) {
                    index += 1;
                }
                if self.bytes.get(index) == Some(&b'/') {
                    // The closing tag ends the element.
                    self.index = index;
                    while self.index < self.bytes.len() && self.bytes[self.index] != b'>' {
                        self.index += 1;
                    }
                    self.index += 1;
                    self.close();
                    at.operand_end = true;
                } else {
                    self.element(at)?;
                }
            }
            byte => self.loose_bracket(byte)?,
        }
        Ok(())
    }

    /// A bracket in JSX text or a tag is not code, but it is counted while open, so that a text
    /// misread as JSX can only count high.
    fn loose_bracket(&mut self, byte: u8) -> Result<(), TooDeep> {
        let start = self.index;
        self.index += 1;
        match byte {
            b'(' | b'[' => self.counts.loose += 1,
            b')' | b']' => self.counts.loose = self.counts.loose.saturating_sub(1),
            _ => {}
        }
        if self.depth() > self.limit { Err(TooDeep { offset: start, construct: Construct::Brackets }) } else { Ok(()) }
    }

    fn template_text(&mut self, at: &mut Position) -> Result<(), TooDeep> {
        let start = self.index;
        match self.bytes[start] {
            b'\\' => self.index += 2,
            b'`' => {
                self.index += 1;
                self.close();
                at.operand_end = true;
            }
            b'$' if self.peek(1) == b'{' => {
                self.index += 2;
                at.operand_end = false;
                self.open(Kind::TemplateCode, start)?;
            }
            _ => self.index += 1,
        }
        Ok(())
    }

    /// Skips a string from its opening quote; in code a line break ends it (an unterminated string,
    /// which the parser reports), in JSX attributes it may span lines.
    fn skip_string(&mut self, quote: u8, multiline: bool) {
        self.index += 1;
        while self.index < self.bytes.len() {
            let byte = self.bytes[self.index];
            if byte == quote || (byte == b'\n' && !multiline) {
                break;
            }
            if byte == b'\\' && !multiline {
                self.index += 1;
            }
            self.index += 1;
        }
        self.index += 1;
    }

    /// Skips a regular expression literal from its opening `/`: up to the `/` that ends it (not one
    /// in a character class), then its flags; a line break ends it too.
    fn skip_regex(&mut self) {
        self.index += 1;
        let mut class = false;
        while self.index < self.bytes.len() {
            match self.bytes[self.index] {
                b'\\' => self.index += 1,
                b'[' => class = true,
                b']' => class = false,
                b'/' if !class => break,
                b'\n' | b'\r' => return,
                _ => {}
            }
            self.index += 1;
        }
        self.index += 1;
        self.skip_word();
    }

    /// Skips a number from its first digit or `.`: `1.5e3`, `0x1F`, `1_000n`.
    fn skip_number(&mut self) {
        self.index += 1;
        while self.index < self.bytes.len() && (is_word_byte(self.bytes[self.index]) || self.bytes[self.index] == b'.')
        {
            self.index += 1;
        }
    }

    fn skip_word(&mut self) {
        while self.index < self.bytes.len() && is_word_byte(self.bytes[self.index]) {
            self.index += 1;
        }
    }
}

fn is_word_start(byte: u8) -> bool {
    byte.is_ascii_alphabetic() || byte == b'_' || byte == b'$' || byte == b'#' || byte == b'\\' || byte >= 0x80
}

fn is_word_byte(byte: u8) -> bool {
    byte.is_ascii_alphanumeric() || byte == b'_' || byte == b'$' || byte == b'\\' || byte >= 0x80
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The least limit `text` stays within.
    fn depth(text: &str, jsx: bool) -> usize {
        let (mut low, mut high) = (0, text.len() + 1);
        while low < high {
            let middle = (low + high) / 2;
            if past_limit(text, jsx, middle).is_some() { low = middle + 1 } else { high = middle }
        }
        low
    }

    #[test]
    fn brackets_are_counted_outside_strings_comments_regexes_and_template_text() {
        // `f(` a call, `(`, `[`, `{`, `a:` a key: five levels.
        assert_eq!(past_limit("f([{ a: 1 }])", false, 5), None);
        assert_eq!(past_limit("f([{ a: [1] }])", false, 5).map(|d| d.offset), Some(8));
        assert_eq!(past_limit("'(((('; \"[[[[\"; // {{{{\n /* (((( */ `((((${ (x) }((((`; /(((/", false, 3), None);
        let deep = format!("{}1{}", "[".repeat(5000), "]".repeat(5000));
        assert_eq!(past_limit(&deep, false, 1000), Some(TooDeep { offset: 1000, construct: Construct::Brackets }));
        // A `//` comment ends at every line terminator JavaScript has: what follows is code.
        for terminator in ["\n", "\r", "\u{2028}", "\u{2029}"] {
            let text = format!("// a comment{terminator}{}1{}", "{ a: ".repeat(100), " }".repeat(100));
            assert!(past_limit(&text, false, 50).is_some(), "{terminator:?}");
        }
    }

    #[test]
    fn every_recursive_construct_counts_a_level_each() {
        let n = 300;
        let cases: Vec<(String, Construct, bool)> = vec![
            (format!("type T = {}string{};", "Array<".repeat(n), ">".repeat(n)), Construct::TypeArguments, false),
            (format!("type T = {}string{};", "A<x, ".repeat(n), ">".repeat(n)), Construct::TypeArguments, false),
            (format!("x = {}5;", "- ".repeat(n)), Construct::Operators, false),
            (format!("x = {}1;", "!".repeat(n)), Construct::Operators, false),
            (format!("x = {}1;", "typeof ".repeat(n)), Construct::Operators, false),
            (format!("x = o{};", ".a".repeat(n)), Construct::Operators, false),
            (format!("x = o{};", "?.a".repeat(n)), Construct::Operators, false),
            (format!("x = f{};", "()".repeat(n)), Construct::Brackets, false),
            (format!("x = o{};", "[0]".repeat(n)), Construct::Brackets, false),
            (format!("x = o{};", "!".repeat(n)), Construct::Operators, false),
            (format!("x = 1{};", " as any".repeat(n)), Construct::Operators, false),
            (format!("x = {}1;", "1 ? 1 : ".repeat(n)), Construct::Operators, false),
            (format!("x = {}1{};", "c ? ".repeat(n), " : 1".repeat(n)), Construct::Operators, false),
            (format!("x = {}1;", "a = ".repeat(n)), Construct::Operators, false),
            (format!("x = {}1;", "x => ".repeat(n)), Construct::Operators, false),
            (format!("x = {}1;", "1 ** ".repeat(n)), Construct::Operators, false),
            (format!("x = {}1;", "<any>".repeat(n)), Construct::TypeArguments, false),
            (format!("type T<X> = {}1;", "X extends 1 ? 1 : ".repeat(n)), Construct::Operators, false),
            (format!("{}q = 1;", "if (q)\n".repeat(n)), Construct::Brackets, false),
            (format!("if (q) {{}}\n{}", "else if (q) {}\n".repeat(n)), Construct::Brackets, false),
            ((0..n).map(|i| format!("l{i}:\n")).collect::<String>() + "x;", Construct::Operators, false),
            (format!("x = {}1{};", "`${".repeat(n), "}`".repeat(n)), Construct::Templates, false),
            (format!("x = {}t{};", "<a b=\"1\">".repeat(n), "</a>".repeat(n)), Construct::Elements, true),
            (format!("x = {}1{};", "(".repeat(n), ")".repeat(n)), Construct::Brackets, true),
        ];
        for (text, construct, jsx) in cases {
            let found = past_limit(&text, jsx, n - 1);
            assert_eq!(found.map(|d| d.construct), Some(construct), "{}…", &text[..60.min(text.len())]);
            assert!(depth(&text, jsx) <= 2 * n + 4, "counted far past its depth: {}…", &text[..60]);
        }
    }

    #[test]
    fn real_code_measures_as_deep_as_it_nests() {
        // Statements, comparisons, generics, arrows, JSX with text, regexes: each shallow.
        let code = r#"
            import { z } from 'zod';
            const schema = z.object({ a: z.string().min(1), b: z.array(z.number()).optional() });
            export default async function handler(input: Input): Promise<Result<Map<string, number[]>>> {
              if (input.a < 3 && input.b > 2) return { ok: true };
              for (let i = 0; i < items.length; i++) total += items[i] < 0 ? -items[i] : items[i];
              const re = /[(\[{]+/g, t = `a ${b ? `c ${d}` : e} f`;
              label: while (x) { if (y) continue label; else break }
              const f = <T,>(x: T) => x, g = <T extends U>(x: T): T => x
              return a ? b : c ? d : e
            }
            const View = () => <div className="x">don't (worry) {items.map((i) => <p key={i}>{i}</p>)}</div>;
        "#;
        let lines = "x = a.b.c(d)\ny = e < f\nz = g\n".repeat(2000);
        assert!(depth(code, true) <= 12, "{}", depth(code, true));
        assert!(depth(&lines, false) <= 6, "lines that end without `;` start again: {}", depth(&lines, false));
        let siblings = format!("x = <div>{}</div>;", "<p>it's (a) [b] {c.d}</p>\n".repeat(3000));
        assert!(depth(&siblings, true) <= 8, "{}", depth(&siblings, true));
        let conditions =
            format!("x = {};", (0..3000).map(|i| format!("(a{i} < b ? 1 : 2)")).collect::<Vec<_>>().join(" + "));
        assert!(depth(&conditions, false) <= 8, "{}", depth(&conditions, false));
    }

    /// Expressions wrapped in constructs that each add a level of the syntax tree: the measure is
    /// never lower than the number of wrappers, whatever their mix (generated, seeded).
    #[test]
    fn the_measure_is_an_upper_bound_of_generated_nesting() {
        const WRAPPERS: &[(&str, &str)] = &[
            ("(", ")"),
            ("[", "]"),
            ("{ a: ", " }"),
            ("- ", ""),
            ("!", ""),
            ("typeof ", ""),
            ("await ", ""),
            ("`${", "}`"),
            ("c ? ", " : 1"),
            ("c ? 1 : ", ""),
            ("x => ", ""),
            ("a = ", ""),
            ("1 ** ", ""),
            ("f(", ")"),
            ("<any>", ""),
            ("new ", ""),
        ];
        let mut state = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = |n: usize| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            (state % n as u64) as usize
        };
        for _ in 0..500 {
            let levels = 1 + next(200);
            let (mut open, mut close) = (String::new(), String::new());
            for _ in 0..levels {
                let (before, after) = WRAPPERS[next(WRAPPERS.len())];
                open.push_str(before);
                close.insert_str(0, after);
            }
            let text = format!("x = {open}y{close};\n");
            assert!(past_limit(&text, false, levels).is_some(), "counted below {levels}: {text}");
        }
    }

    /// Any text ends the scan in one pass (each step takes a byte: asserted inside), with no panic.
    #[test]
    fn any_text_is_scanned_to_its_end() {
        const PIECES: &[&str] = &[
            "(", ")", "[", "]", "{", "}", "<", ">", ">>", "/", "*", "'", "\"", "`", "${", "\\", "\n", " ", "a", "1",
            ".5", "#", "?", ":", "=>", "!", "-", "+", "if", "else", "as", "extends", "<a>", "</a>", "/>", ",", ";",
            "é", "//", "/*", "*/",
        ];
        let mut state = 0x2545_f491_4f6c_dd1du64;
        let mut next = |n: usize| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            (state % n as u64) as usize
        };
        for _ in 0..3000 {
            let text: String = (0..next(80)).map(|_| PIECES[next(PIECES.len())]).collect();
            for jsx in [false, true] {
                let _ = past_limit(&text, jsx, 4);
            }
        }
    }
}
