// SPDX-License-Identifier: MIT OR Apache-2.0
#include "test_support.hpp"

#include <fstream>
#include <stdexcept>


namespace test {

bytes from_hex(const std::string &hex)
{
    if (hex.size() % 2 != 0)
        throw std::invalid_argument("odd hex length");
    bytes out(hex.size() / 2);
    for (std::size_t i = 0; i < out.size(); i++)
        out[i] = static_cast<std::uint8_t>(std::stoul(hex.substr(2 * i, 2), nullptr, 16));
    return out;
}

std::string to_hex(const std::uint8_t *p, std::size_t n)
{
    static const char digits[] = "0123456789abcdef";
    std::string s;
    s.reserve(2 * n);
    for (std::size_t i = 0; i < n; i++) {
        s += digits[p[i] >> 4];
        s += digits[p[i] & 15];
    }
    return s;
}

bytes ptn(std::size_t n)
{
    bytes out(n);
    for (std::size_t i = 0; i < n; i++)
        out[i] = static_cast<std::uint8_t>(i % 251);
    return out;
}

nlohmann::json load_json(const std::string &relative_path)
{
    const std::string path = std::string(SHAKERAND_SOURCE_DIR) + "/" + relative_path;
    std::ifstream in(path);
    if (!in)
        throw std::runtime_error("cannot open " + path);
    return nlohmann::json::parse(in);
}

std::vector<const shakerand_kernel *> kernels()
{
    std::vector<const shakerand_kernel *> out;
    for (std::size_t i = 0; shakerand_kernel_list[i] != nullptr; i++)
        if (shakerand_kernel_find(shakerand_kernel_list[i]->name) != nullptr)
            out.push_back(shakerand_kernel_list[i]);
    return out;
}

}  // namespace test
