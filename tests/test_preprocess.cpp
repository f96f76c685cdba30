// The preprocessor of a kernel's file (cuda_subset/lexer.hpp): macros object- and function-like
// with # and ##, variadic ones, rescanning (the C standard's own examples), conditional groups and
// the #if evaluator, #include through a reader, #error, the predefined macros, the literals the lexer
// reads, the block-size override, and the limits an untrusted file meets.
#include <doctest/doctest.h>

#include <chrono>
#include <map>
#include <string>

#include "cuda_subset/lexer.hpp"

using namespace sv;

namespace {

// The tokens' texts joined by single blanks (the End token left out).
std::string joined(const cuda::Lexed& l) {
  std::string s;
  for (const cuda::Token& t : l.tokens) {
    if (t.kind == cuda::Tok::End) break;
    s += (s.empty() ? "" : " ") + t.text;
  }
  return s;
}

std::string expand(const std::string& source) { return joined(cuda::lex(source, "k.cu")); }

// A reader over named texts, as an application reads files beside the kernel.
cuda::IncludeReader reader(std::map<std::string, std::string> files) {
  return [files = std::move(files)](const std::string& name, const std::string&) -> std::optional<std::string> {
    const auto it = files.find(name);
    if (it == files.end()) return std::nullopt;
    return it->second;
  };
}

cuda::KernelError lex_error(const std::string& source, const cuda::IncludeReader& include = {}) {
  try {
    (void)cuda::lex(source, "k.cu", {}, include);
  } catch (const cuda::KernelError& e) {
    return e;
  }
  FAIL("no error for: " << source);
  return cuda::KernelError("", "", {}, "");
}

const cuda::Token& token(const cuda::Lexed& l, const std::string& text, int nth = 0) {
  for (const cuda::Token& t : l.tokens)
    if (t.text == text && nth-- == 0) return t;
  FAIL("no token " << text);
  return l.tokens.back();
}

}  // namespace

TEST_CASE("object- and function-like macros expand, a function-like name without '(' stays a name") {
  CHECK(expand("#define N 16\nint a[N];") == "int a [ 16 ] ;");
  CHECK(expand("#define SQ(x) ((x) * (x))\ny = SQ(a + 1);") == "y = ( ( a + 1 ) * ( a + 1 ) ) ;");
  CHECK(expand("#define F(x) [x]\nint F; F (1)") == "int F ; [ 1 ]");
  CHECK(expand("#define F(x, y) x | y\nF((a, b), c[(1, 2)])") == "( a , b ) | c [ ( 1 , 2 ) ]");
  CHECK(lex_error("#define F(x) x\nF(a[1, 2])").message == "macro 'F' takes 1 argument, not 2");  // only () group
  CHECK(expand("#define F(x, y) x | y\nF(\n  f(1,\n 2),\n  3)\nnext") == "f ( 1 , 2 ) | 3 next");  // over lines
  CHECK(expand("#define F(x) <x>\nF\n\n(9)") == "< 9 >");  // '(' on a later line
  CHECK(expand("#define E()\n#define ONE(x) x\na E() b ONE() c") == "a b c");
  CHECK(expand("#define A 1\n#undef A\nA") == "A");
  CHECK(expand("#define A 1\n#define A 2\nA") == "2");  // the later #define counts, as compilers take it
  CHECK(lex_error("#define F(x, y) x\nF(1)").message == "macro 'F' takes 2 arguments, not 1");
  CHECK(lex_error("#define F(x) x\nF(1, 2)").kind == "syntax");
  const cuda::KernelError open = lex_error("#define F(x) x\nint a = F(1;\n#define G 2\n");
  CHECK(open.kind == "syntax");
  CHECK(open.pos.line == 2);
  CHECK(open.pos.col == 9);
  CHECK(lex_error("#define F(x, x) x\n").message.find("two parameters named 'x'") != std::string::npos);
  CHECK(lex_error("#define F(x) #y\n").message.find("not followed by a parameter") != std::string::npos);
  CHECK(lex_error("#define F(x) ## x\n").kind == "syntax");
  CHECK(lex_error("#define defined 1\n").kind == "syntax");
}

TEST_CASE("GPU Gems' CONFLICT_FREE_OFFSET and a CUDA error-check macro expand token by token") {
  const std::string gems = "#define NUM_BANKS 16\n#define LOG_NUM_BANKS 4\n"
                           "#define CONFLICT_FREE_OFFSET(n) ((n) >> NUM_BANKS + (n) >> (2 * LOG_NUM_BANKS))\n"
                           "ai += CONFLICT_FREE_OFFSET(ai);\n";
  CHECK(expand(gems) == "ai += ( ( ai ) >> 16 + ( ai ) >> ( 2 * 4 ) ) ;");
  const std::string check = "#define CHECK(call) do { cudaError_t e = (call); if (e != cudaSuccess) { printf(\"%s\\n\", "
                            "cudaGetErrorString(e)); exit(1);} } while (0)\nCHECK(cudaMalloc(&p, n * sizeof(float)));\n";
  const cuda::Lexed l = cuda::lex(check, "k.cu");
  CHECK(joined(l) == "do { cudaError_t e = ( cudaMalloc ( & p , n * sizeof ( float ) ) ) ; if ( e != cudaSuccess ) { printf ( \"%s\\n\" , "
                     "cudaGetErrorString ( e ) ) ; exit ( 1 ) ; } } while ( 0 ) ;");
  const cuda::Token& format = token(l, "\"%s\\n\"");
  CHECK(format.kind == cuda::Tok::String);
  CHECK(format.string_value == "%s\n");
}

TEST_CASE("a macro's own tokens take the position of its outermost use, its arguments keep theirs") {
  const cuda::Lexed l = cuda::lex("#define ONE 1\n#define TWO (ONE + ONE)\n#define ADD(a, b) a + b\n"
                                  "int x = TWO;\n  y = ADD(z,\n     w) * 3;\n",
                                  "k.cu");
  const cuda::Token& one = token(l, "1");
  CHECK(one.pos.line == 4);
  CHECK(one.pos.col == 9);  // TWO's use, not ONE's inside TWO's body
  CHECK(one.pos.file == 0);
  CHECK(token(l, "+").pos.line == 4);
  const cuda::Token& plus = token(l, "+", 1);  // ADD's '+': at the use of ADD
  CHECK(plus.pos.line == 5);
  CHECK(plus.pos.col == 7);
  CHECK(token(l, "z").pos.col == 11);
  CHECK(token(l, "w").pos.line == 6);
  CHECK(token(l, "w").pos.col == 6);
  CHECK(token(l, "*").pos.line == 6);
  // An error in a macro's tokens is at the use.
  const cuda::KernelError e = lex_error("#define BAD 09\n\nint x = BAD;\n");
  CHECK(e.pos.line == 3);
  CHECK(e.pos.col == 9);
  CHECK(std::string(e.what()).rfind("k.cu:3:9: error: malformed number '09'", 0) == 0);
  // A line continuation: the tokens after it are on the next written line.
  const cuda::Lexed c = cuda::lex("int a = \\\n  b;", "k.cu");
  CHECK(token(c, "b").pos.line == 2);
  CHECK(token(c, "b").pos.col == 3);
}

TEST_CASE("# stringizes and ## pastes, placemarkers and all (the C standard's examples)") {
  CHECK(expand("#define S(x) #x\nS(a  +  \"q\\n\"   'c')") == "\"a + \\\"q\\\\n\\\" 'c'\"");
  const cuda::Lexed s = cuda::lex("#define S(x) #x\nS( two  words )", "k.cu");
  CHECK(s.tokens[0].kind == cuda::Tok::String);
  CHECK(s.tokens[0].string_value == "two words");
  CHECK(expand("#define CAT(a, b) a ## b\nCAT(x, 1) CAT(1, 2) CAT(, y) CAT(<, <=) CAT(,)") == "x1 12 y <<=");
  const cuda::Lexed n = cuda::lex("#define CAT(a, b) a ## b\nCAT(0x, 10u)", "k.cu");
  CHECK(n.tokens[0].kind == cuda::Tok::Int);
  CHECK(n.tokens[0].int_value == 16);
  CHECK(n.tokens[0].unsigned_suffix);
  const cuda::KernelError bad = lex_error("#define CAT(a, b) a ## b\nint v =\n  CAT(+, /);\n");
  CHECK(bad.kind == "syntax");
  CHECK(bad.pos.line == 3);
  CHECK(bad.pos.col == 3);
  CHECK(bad.message == "pasting '+' and '/' does not give a valid token");
  CHECK(lex_error("#define CAT(a, b) a ## b\nCAT(/, /)").kind == "syntax");  // not a comment

  // C11 6.10.3.5, examples 3 to 5.
  const std::string ex3 = "#define x 3\n#define f(a) f(x * (a))\n#undef x\n#define x 2\n#define g f\n#define z z[0]\n"
                          "#define h g(~\n#define m(a) a(w)\n#define w 0,1\n#define t(a) a\n#define p() int\n#define q(x) x\n"
                          "#define r(x,y) x ## y\n#define str(x) # x\n"
                          "f(y+1) + f(f(z)) % t(t(g)(0) + t)(1);\ng(x+(3,4)-w) | h 5) & m\n(f)^m(m);\n"
                          "p() i[q()] = { q(1), r(2,3), r(4,), r(,5), r(,) };\nchar c[2][6] = { str(hello), str() };\n";
  CHECK(expand(ex3) == expand("f(2 * (y+1)) + f(2 * (f(2 * (z[0])))) % f(2 * (0)) + t(1);\n"
                              "f(2 * (2+(3,4)-0,1)) | f(2 * (~ 5)) & f(2 * (0,1))^m(0,1);\n"
                              "int i[] = { 1, 23, 4, 5, };\nchar c[2][6] = { \"hello\", \"\" };"));
  const std::string ex4 = "#define str(s) # s\n#define xstr(s) str(s)\n"
                          "#define debug(s, t) printf(\"x\" # s \"= %d, x\" # t \"= %s\", \\\n x ## s, x ## t)\n"
                          "#define INCFILE(n) vers ## n\n#define glue(a, b) a ## b\n#define xglue(a, b) glue(a, b)\n"
                          "#define HIGHLOW \"hello\"\n#define LOW LOW \", world\"\n"
                          "debug(1, 2);\nfputs(str(strncmp(\"abc\\0d\", \"abc\", '\\4') // this goes away\n == 0) str(: @\\n), s);\n"
                          "xstr(INCFILE(2).h)\nglue(HIGH, LOW);\nxglue(HIGH, LOW)\n";
  CHECK(expand(ex4) == "printf ( \"x\" \"1\" \"= %d, x\" \"2\" \"= %s\" , x1 , x2 ) ; "
                       "fputs ( \"strncmp(\\\"abc\\\\0d\\\", \\\"abc\\\", '\\\\4') == 0\" \": @\\n\" , s ) ; "
                       "\"vers2.h\" \"hello\" ; \"hello\" \", world\"");
  const std::string ex5 = "#define t(x,y,z) x ## y ## z\nint j[] = { t(1,2,3), t(,4,5), t(6,,7), t(8,9,),\n"
                          " t(10,,), t(,11,), t(,,12), t(,,) };\n";
  CHECK(expand(ex5) == "int j [ ] = { 123 , 45 , 67 , 89 , 10 , 11 , 12 , } ;");
}

TEST_CASE("variadic macros: __VA_ARGS__, none at all, GNU's , ## __VA_ARGS__, __VA_OPT__, named ones") {
  const std::string ex7 = "#define debug(...) fprintf(stderr, __VA_ARGS__)\n#define showlist(...) puts(#__VA_ARGS__)\n"
                          "#define report(test, ...) ((test)?puts(#test): printf(__VA_ARGS__))\n"
                          "debug(\"Flag\");\ndebug(\"X = %d\\n\", x);\nshowlist(The first, second, and third items.);\n"
                          "report(x>y, \"x is %d but y is %d\", x, y);\n";
  CHECK(expand(ex7) == expand("fprintf(stderr, \"Flag\");\nfprintf(stderr, \"X = %d\\n\", x);\n"
                              "puts(\"The first, second, and third items.\");\n"
                              "((x>y)?puts(\"x>y\"): printf(\"x is %d but y is %d\", x, y));"));
  CHECK(expand("#define LOG(fmt, ...) printf(fmt, ##__VA_ARGS__)\nLOG(\"a\"); LOG(\"b\", 1, 2);") ==
        "printf ( \"a\" ) ; printf ( \"b\" , 1 , 2 ) ;");
  CHECK(expand("#define V(a, ...) f(a __VA_OPT__(,) __VA_ARGS__)\nV(1) V(1, 2, 3)") == "f ( 1 ) f ( 1 , 2 , 3 )");
  CHECK(expand("#define N(args...) g(args)\nN() N(1, 2)") == "g ( ) g ( 1 , 2 )");
  CHECK(expand("#define C(...) __VA_ARGS__\nC(a, (b, c), d)") == "a , ( b , c ) , d");
  CHECK(lex_error("#define F(x) __VA_ARGS__\n").kind == "syntax");
  CHECK(lex_error("#define F(..., x) x\n").kind == "syntax");
}

TEST_CASE("a macro is not expanded inside its own expansion: self-reference ends") {
  CHECK(expand("#define X X + 1\nX") == "X + 1");
  CHECK(expand("#define foo foo\nfoo") == "foo");
  CHECK(expand("#define A B\n#define B A\nA B") == "A B");
  CHECK(expand("#define f(x) x f\nf(f)(1)") == "f f ( 1 )");
  CHECK(expand("#define X X X\n#define Y (Y)\nX Y") == "X X ( Y )");
  // The name stays unexpanded for good, even where it is later substituted into another macro.
  CHECK(expand("#define id(x) x\n#define foo id(foo)\nfoo") == "foo");
}

TEST_CASE("#if, #elif, #else, #ifdef, #ifndef, defined, and C's integer arithmetic in conditions") {
  const std::string chain = "#define LEVEL 2\n#if LEVEL == 1\none\n#elif LEVEL == 2\ntwo\n#elif LEVEL == 2\nagain\n#else\nother\n#endif\n";
  CHECK(expand(chain) == "two");
  CHECK(expand("#ifdef NOPE\na\n#else\nb\n#endif\n#ifndef NOPE\nc\n#endif") == "b c");
  CHECK(expand("#define D\n#if defined D && defined(D) && !defined(E)\nyes\n#endif") == "yes");
  CHECK(expand("#if UNKNOWN_NAME == 0 && true && !false\nzero\n#endif") == "zero");
  CHECK(expand("#if -1 > 0u\nunsigned\n#endif\n#if -1 < 0\nsigned\n#endif") == "unsigned signed");
  CHECK(expand("#if (1 ? 2 : (1/0)) == 2 && (0 && 1/0) == 0 && (1 || 1%0)\nshort\n#endif") == "short");
  CHECK(expand("#if 'A' == 65 && '\\n' == 10 && '\\377' < 0 && 0x10 == 16 && 010 == 8 && (1 << 62) > 0\nchars\n#endif") == "chars");
  CHECK(expand("#if 7 / 2 == 3 && -7 % 3 == -1 && (2, 3) == 3 && ~0 == -1 && (5 & 3 | 8 ^ 1) == 9 && -8 >> 1 == -4\narith\n#endif") ==
        "arith");
  CHECK(expand("#define F(x) (x * 2)\n#if F(3) >= 6 && 18446744073709551615u == -1\nmacros\n#endif") == "macros");
  CHECK(expand("#if 1\n#if 0\na\n#elif 1\nb\n#endif\n#else\nc\n#endif") == "b");
  // Skipped groups: anything, nested conditionals followed but not evaluated.
  CHECK(expand("#if 0\n#if 1/0\ndon't \"care\n#bogus directive\n#error not this\n#else\nx\n#endif\n#elif 1\nkept\n#endif") == "kept");
  CHECK(expand("#if 0\n/* a comment #endif\n*/\n#endif\nafter") == "after");
  const cuda::KernelError zero = lex_error("#if 1 / 0\n#endif\n");
  CHECK(zero.kind == "syntax");
  CHECK(zero.message == "division by zero in #if");
  CHECK(lex_error("#if\n#endif\n").message == "#if with no expression");
  CHECK(lex_error("#if 1.5\n#endif\n").kind == "syntax");
  CHECK(lex_error("#if 1 +\n#endif\n").kind == "syntax");
  CHECK(lex_error("#if (1\n#endif\n").kind == "syntax");
  CHECK(lex_error("#if 1 2\n#endif\n").kind == "syntax");
}

TEST_CASE("unbalanced conditionals are errors at the directive") {
  cuda::KernelError e = lex_error("int a;\n#endif\n");
  CHECK(e.message == "#endif without #if");
  CHECK(e.pos.line == 2);
  CHECK(e.pos.col == 1);
  e = lex_error("#if 1\n#else\n#else\n#endif\n");
  CHECK(e.message == "#else after #else");
  CHECK(e.pos.line == 3);
  CHECK(lex_error("#ifdef A\n#else\n#elif 1\n#endif\n").message == "#elif after #else");
  CHECK(lex_error("  #else\n").message == "#else without #if");
  e = lex_error("a\n  #ifdef X\nb\n");
  CHECK(e.message == "#ifdef without #endif");
  CHECK(e.pos.line == 2);
  CHECK(e.pos.col == 3);
  CHECK(lex_error("#if 0\n#if 1\n#endif\n").message == "#if without #endif");  // nested, in a skipped group
  CHECK(lex_error("#ifdef\n#endif\n").message == "#ifdef needs a macro name");
}

TEST_CASE("#error stops at its line, #warning, #pragma and #line are read past, other directives are refused") {
  const cuda::KernelError e = lex_error("int a;\n  #error BLOCK_DIM must be a power of two // why\n");
  CHECK(e.kind == "syntax");
  CHECK(e.message == "#error BLOCK_DIM must be a power of two");
  CHECK(e.pos.line == 2);
  CHECK(e.pos.col == 3);
  CHECK(expand("#warning it's fine\n#pragma unroll\n#pragma once\n#line 10 \"x.cu\"\n# 5 \"y.cu\"\n#\nk") == "k");
  const cuda::KernelError u = lex_error("#import \"x\"\n");
  CHECK(u.kind == "unsupported");
  CHECK(u.message.find("'#import'") != std::string::npos);
}

TEST_CASE("#include \"name\" reads through the reader: its tokens name file 1, its errors the included file") {
  const cuda::IncludeReader files = reader({{"params.h", "#pragma once\n#define SECTION 32\nint from_header;\n"},
                                            {"bad.h", "\n  #error in the header\n"},
                                            {"tail.h", "int x = 08;\n"},
                                            {"a.h", "#include \"b.h\"\n"},
                                            {"b.h", "#include \"a.h\"\n"}});
  const cuda::Lexed l = cuda::lex("#include <cstdio>\n#include \"cuda_runtime.h\"\n#include \"params.h\"\n#include \"params.h\"\n"
                                  "float s[SECTION];\n",
                                  "k.cu", {}, files);
  CHECK(joined(l) == "int from_header ; float s [ 32 ] ;");
  REQUIRE(l.files.size() == 2);
  CHECK(l.files[0] == "k.cu");
  CHECK(l.files[1] == "params.h");
  CHECK(token(l, "from_header").pos.file == 1);
  CHECK(token(l, "from_header").pos.line == 3);
  CHECK(token(l, "32").pos.file == 0);  // SECTION's use is in k.cu
  CHECK(l.macros.count("SECTION") == 1);
  CHECK(l.macros.at("SECTION").file == 1);

  cuda::KernelError e = lex_error("#include \"bad.h\"\n", files);
  CHECK(e.file == "bad.h");
  CHECK(e.pos.file == 1);
  CHECK(e.pos.line == 2);
  CHECK(std::string(e.what()).rfind("bad.h:2:3: error: #error in the header", 0) == 0);
  e = lex_error("\n#include \"tail.h\"\n", files);
  CHECK(e.file == "tail.h");
  CHECK(e.message == "malformed number '08'");
  e = lex_error("#include \"missing.h\"\n", files);
  CHECK(e.message == "#include \"missing.h\": file not found");
  CHECK(e.file == "k.cu");
  CHECK(lex_error("#include \"params.h\"\n").message == "#include \"params.h\": file not found");  // no reader
  e = lex_error("#include \"a.h\"\n", files);
  CHECK(e.kind == "syntax");
  CHECK(e.message.find("\"a.h\"") != std::string::npos);
  CHECK(e.message.find("cycle") != std::string::npos);
  CHECK(e.file == "b.h");
  CHECK(lex_error("#define H \"params.h\"\n#include H\n#include 42\n", files).message == "#include expects \"FILE\" or <FILE>");
  CHECK(lex_error("#include \"k.cu\"\n", reader({{"k.cu", ""}})).message.find("cycle") != std::string::npos);
}

TEST_CASE("the predefined macros: nvcc's device pass for sm_90, __FILE__ and __LINE__") {
  const cuda::IncludeReader files = reader({{"h.h", "\nconst char* f = __FILE__; int l = __LINE__;\n"}});
  const cuda::Lexed l = cuda::lex("#if defined(__CUDACC__) && __NVCC__ && __CUDA_ARCH__ == 900 && __cplusplus >= 201703L\n"
                                  "device\n#endif\n#ifdef __LINE__\nint line = __LINE__;\n#endif\n#include \"h.h\"\n",
                                  "k.cu", {}, files);
  CHECK(joined(l) == "device int line = 5 ; const char * f = \"h.h\" ; int l = 2 ;");
  CHECK(token(l, "\"h.h\"").string_value == "h.h");
  CHECK(token(l, "5").kind == cuda::Tok::Int);
  CHECK(l.macros.empty());  // predefined ones are not the file's
}

TEST_CASE("literals: strings with escapes, character literals as ints, integers to 64 bits with their suffixes") {
  const cuda::Lexed l = cuda::lex("\"a\\tb\\\\\\\"\" u8\"x\" L\"w\" 'a' '\\n' '\\0' '\\x41' '\\377' L'z' "
                                  "4294967296 0xffffffff 0x7fffffff 18446744073709551615u 10l 7ull 5LLU 010 0b101 1.5f 2.0 1e3",
                                  "k.cu");
  const auto& t = l.tokens;
  REQUIRE(t.size() == 22);
  CHECK(t[0].kind == cuda::Tok::String);
  CHECK(t[0].text == "\"a\\tb\\\\\\\"\"");
  CHECK(t[0].string_value == "a\tb\\\"");
  CHECK(t[1].string_value == "x");
  CHECK(t[2].kind == cuda::Tok::String);
  CHECK(t[3].kind == cuda::Tok::Int);
  CHECK(t[3].int_value == 97);
  CHECK(t[4].int_value == 10);
  CHECK(t[5].int_value == 0);
  CHECK(t[6].int_value == 65);
  CHECK(static_cast<std::int64_t>(t[7].int_value) == -1);  // char is signed
  CHECK(t[8].int_value == 'z');
  CHECK(t[9].int_value == 4294967296ull);
  CHECK_FALSE(t[9].unsigned_suffix);  // a decimal literal is long, not unsigned
  CHECK(t[10].unsigned_suffix);       // 0xffffffff is unsigned int in C
  CHECK_FALSE(t[11].unsigned_suffix);
  CHECK(t[12].int_value == 18446744073709551615ull);
  CHECK(t[12].unsigned_suffix);
  CHECK(t[13].long_suffix);
  CHECK_FALSE(t[13].unsigned_suffix);
  CHECK(t[14].long_suffix);
  CHECK(t[14].unsigned_suffix);
  CHECK(t[15].long_suffix);
  CHECK(t[15].unsigned_suffix);
  CHECK(t[16].int_value == 8);
  CHECK(t[17].int_value == 5);
  CHECK(t[18].kind == cuda::Tok::Float);
  CHECK(t[18].float_suffix);
  CHECK(t[18].float_value == 1.5);
  CHECK_FALSE(t[19].float_suffix);
  CHECK(t[20].float_value == 1000.0);
  CHECK(cuda::lex("1'000'000", "k.cu").tokens[0].int_value == 1000000);
  CHECK(lex_error("18446744073709551616").kind == "unsupported");
  CHECK(lex_error("18446744073709551616").message == "integer literal '18446744073709551616' does not fit 64 bits");
  CHECK(lex_error("12abc").kind == "unsupported");
  const cuda::KernelError open = lex_error("int a;\n  char* s = \"abc;\n");
  CHECK(open.kind == "syntax");
  CHECK(open.message == "unterminated string literal");
  CHECK(open.pos.line == 2);
  CHECK(open.pos.col == 13);
  CHECK(lex_error("x = '';").kind == "syntax");
  CHECK(lex_error("int @;").message == "unexpected character '@'");
  CHECK(lex_error("/* open").message == "unterminated /* comment");
}

TEST_CASE("an override replaces an object-like macro's body, also one under #ifndef") {
  const std::string guarded = "#ifndef BLOCK_DIM\n#define BLOCK_DIM 1024\n#endif\n#define F(BLOCK_DIM) BLOCK_DIM\nint a[BLOCK_DIM];\n";
  const cuda::Lexed l = cuda::lex(guarded, "k.cu", {{"BLOCK_DIM", "8"}, {"OTHER", "3"}});
  CHECK(joined(l) == "int a [ 8 ] ;");
  CHECK(token(l, "8").pos.line == 5);
  CHECK(l.macros.count("BLOCK_DIM") == 1);
  CHECK(l.macros.count("OTHER") == 0);
  CHECK(l.macros.at("BLOCK_DIM").line == 2);
  CHECK(expand(guarded) == "int a [ 1024 ] ;");
  CHECK(joined(cuda::lex("#define SQ(x) x * x\nSQ(2)", "k.cu", {{"SQ", "9"}})) == "2 * 2");  // function-like: kept
}

TEST_CASE("untrusted files: exponential macros, deep nesting and long includes are refused with kind limit, quickly") {
  const auto start = std::chrono::steady_clock::now();
  std::string doubling = "#define M0 1\n";
  for (int i = 1; i < 60; ++i) doubling += "#define M" + std::to_string(i) + " M" + std::to_string(i - 1) + " M" + std::to_string(i - 1) + "\n";
  CHECK(lex_error(doubling + "M59").kind == "limit");
  std::string empty = "#define E0\n";  // doubling to nothing: no output token ever counts
  for (int i = 1; i < 60; ++i) empty += "#define E" + std::to_string(i) + " E" + std::to_string(i - 1) + " E" + std::to_string(i - 1) + "\n";
  CHECK(lex_error(empty + "E59").kind == "limit");
  const std::string strings = "#define S(x) #x #x #x #x #x #x #x #x\n#define X(x) S(x)\n";  // X: S of the expansion
  std::string nested = "a";
  for (int i = 0; i < 12; ++i) nested = "X(" + nested + ")";
  CHECK(lex_error(strings + nested).kind == "limit");
  std::string pasted = "a";
  for (int i = 0; i < 40; ++i) pasted = "E(" + pasted + ")";
  CHECK(lex_error("#define D(x) x ## x\n#define E(x) D(x)\n" + pasted).kind == "limit");
  std::string calls = "x";
  for (int i = 0; i < 2000; ++i) calls = "F(" + calls + ")";
  CHECK(lex_error("#define F(x) x\n" + calls).kind == "limit");
  std::string chain;
  for (int i = 0; i < 400; ++i) chain += "#define C" + std::to_string(i) + " C" + std::to_string(i + 1) + "\n";
  CHECK(lex_error(chain + "C0").kind == "limit");
  std::string ifs;
  for (int i = 0; i < 65; ++i) ifs += "#if 1\n";
  const cuda::KernelError deep = lex_error(ifs);
  CHECK(deep.kind == "limit");
  CHECK(deep.pos.line == 65);
  CHECK(lex_error("#if " + std::string(5000, '(') + "1" + std::string(5000, ')') + "\n#endif\n").kind == "limit");
  CHECK(lex_error("#if " + std::string(5000, '!') + "1\n#endif\n").kind == "limit");
  std::map<std::string, std::string> headers;
  for (int i = 0; i < 20; ++i) headers["h" + std::to_string(i) + ".h"] = "#include \"h" + std::to_string(i + 1) + ".h\"\n";
  CHECK(lex_error("#include \"h0.h\"\n", reader(headers)).kind == "limit");
  const std::string big(200 * 1024, ' ');
  CHECK(lex_error("#include \"big.h\"\n#include \"big2.h\"\n", reader({{"big.h", big}, {"big2.h", big}})).kind == "limit");
  std::string many;
  for (int i = 0; i < 1100; ++i) many += "#include \"e.h\"\n";
  CHECK(lex_error(many, reader({{"e.h", ""}})).kind == "limit");
  CHECK(lex_error("#define T a a a a a a a a a a\n#define U T T T T T T T T T T\n#define V U U U U U U U U U U\n"
                  "#define W V V V V V V V V V V\nW W W W W W W W W W W W W W")
            .kind == "limit");
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  CHECK(seconds < 20);
}
