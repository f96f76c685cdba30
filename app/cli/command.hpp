// One subcommand of the command line: what it registers with CLI11 and what runs it once parsed.
// Each command is a file of its own here (docs/cli.md describes them); main.cpp registers them all
// and runs the one given.
#pragma once

#include <CLI/CLI.hpp>

#include <functional>
#include <stdexcept>

namespace sv::cli {

struct Command {
  CLI::App* app = nullptr;
  // Runs the command and returns its exit code. Bad arguments throw (UsageError, RequestError,
  // std::invalid_argument), which main says in one line with exit code 2.
  std::function<int()> run;
};

// Arguments the command line refuses, said as its flags.
struct UsageError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

}  // namespace sv::cli
