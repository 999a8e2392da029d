#include "tb/tests/support/waveform_files.h"

#include <fstream>
#include <stdexcept>

namespace ssdvp::test {

std::map<std::string, unsigned> vcd_variables(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw std::runtime_error("cannot read " + path);
  std::map<std::string, unsigned> variables;
  std::vector<std::string> scopes;
  for (std::string token; in >> token;) {
    if (token == "$scope") {
      std::string kind, name;
      in >> kind >> name;
      scopes.push_back(name);
    } else if (token == "$upscope") {
      scopes.pop_back();
    } else if (token == "$var") {
      std::string kind, code, name;
      unsigned width = 0;
      in >> kind >> width >> code >> name;
      std::string full;
      for (const auto& scope : scopes) full += scope + ".";
      variables[full + name] = width;
    } else if (token == "$enddefinitions") {
      break;
    }
  }
  return variables;
}

std::vector<SaveFileTrace> save_file_traces(const std::string& path) {
  std::ifstream save(path);
  if (!save) throw std::runtime_error("cannot read " + path);
  std::vector<SaveFileTrace> traces;
  for (std::string line; std::getline(save, line);) {
    if (line.empty() || line[0] == '[' || line[0] == '@' || line[0] == '*' || line[0] == '-') {
      continue;
    }
    if (line[0] == '+') {
      const size_t alias_end = line.find("} ");
      if (alias_end == std::string::npos) throw std::runtime_error(path + ": bad alias: " + line);
      line = line.substr(alias_end + 2);
    }
    SaveFileTrace trace{line, 1};
    if (const size_t bracket = line.find('['); bracket != std::string::npos) {
      trace.name = line.substr(0, bracket);
      trace.width = static_cast<unsigned>(std::stoul(line.substr(bracket + 1))) + 1;
    }
    traces.push_back(trace);
  }
  return traces;
}

}  // namespace ssdvp::test
