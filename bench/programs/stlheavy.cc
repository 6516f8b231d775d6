// stlheavy.cc — a C++ program of the shape that hurt libamon's
// -finstrument-functions build (issue 28: 0.26 s bare, 15 s profiled):
// templates, virtual calls, the STL's containers and algorithms,
// std::function, smart pointers, and exceptions thrown from deep inside a
// recursion and caught at its top.  For bench/amon-overhead.sh.
//
// Usage: stlheavy [ROUNDS]   (default 40); prints a checksum.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <map>
#include <memory>
#include <numeric>
#include <stdexcept>
#include <string>
#include <unordered_map>
#include <vector>

namespace
{

struct Shape
{
  virtual ~Shape () = default;
  virtual double area () const = 0;
  virtual double perimeter () const = 0;
  virtual std::string name () const = 0;
};

struct Circle : Shape
{
  double r;
  explicit Circle (double r_) : r (r_) {}
  double area () const override { return M_PI * r * r; }
  double perimeter () const override { return 2 * M_PI * r; }
  std::string name () const override { return "circle"; }
};

struct Rect : Shape
{
  double w, h;
  Rect (double w_, double h_) : w (w_), h (h_) {}
  double area () const override { return w * h; }
  double perimeter () const override { return 2 * (w + h); }
  std::string name () const override { return w == h ? "square" : "rect"; }
};

struct Polygon : Shape
{
  std::vector<std::pair<double, double>> pts;
  double area () const override
  {
    double a = 0;
    for (size_t i = 0; i < pts.size (); i++)
      {
        const auto &p = pts[i], &q = pts[(i + 1) % pts.size ()];
        a += p.first * q.second - q.first * p.second;
      }
    return std::fabs (a) / 2;
  }
  double perimeter () const override
  {
    double s = 0;
    for (size_t i = 0; i < pts.size (); i++)
      {
        const auto &p = pts[i], &q = pts[(i + 1) % pts.size ()];
        s += std::hypot (p.first - q.first, p.second - q.second);
      }
    return s;
  }
  std::string name () const override { return "polygon" + std::to_string (pts.size ()); }
};

unsigned long seed = 88172645463325252ul;

unsigned
rnd ()
{
  seed ^= seed << 13;
  seed ^= seed >> 7;
  seed ^= seed << 17;
  return (unsigned) seed;
}

std::unique_ptr<Shape>
make_shape ()
{
  switch (rnd () % 3)
    {
    case 0:
      return std::make_unique<Circle> (1 + rnd () % 100);
    case 1:
      return std::make_unique<Rect> (1 + rnd () % 20, 1 + rnd () % 20);
    default:
      {
        auto p = std::make_unique<Polygon> ();
        int n = 3 + rnd () % 6;
        for (int i = 0; i < n; i++)
          p->pts.emplace_back (std::cos (i * 2 * M_PI / n) * (1 + rnd () % 10), std::sin (i * 2 * M_PI / n) * 5);
        return p;
      }
    }
}

// an expression tree, templated on its number type, evaluated by virtual
// calls; division by zero throws from wherever it is
template <typename T> struct Expr
{
  virtual ~Expr () = default;
  virtual T eval (const std::map<std::string, T> &env) const = 0;
};

template <typename T> struct Const : Expr<T>
{
  T v;
  explicit Const (T v_) : v (v_) {}
  T eval (const std::map<std::string, T> &) const override { return v; }
};

template <typename T> struct Var : Expr<T>
{
  std::string name;
  explicit Var (std::string n) : name (std::move (n)) {}
  T eval (const std::map<std::string, T> &env) const override
  {
    auto it = env.find (name);
    if (it == env.end ())
      throw std::out_of_range ("unbound " + name);
    return it->second;
  }
};

template <typename T> struct Bin : Expr<T>
{
  char op;
  std::shared_ptr<Expr<T>> a, b;
  Bin (char o, std::shared_ptr<Expr<T>> x, std::shared_ptr<Expr<T>> y) : op (o), a (std::move (x)), b (std::move (y)) {}
  T eval (const std::map<std::string, T> &env) const override
  {
    T x = a->eval (env), y = b->eval (env);
    switch (op)
      {
      case '+':
        return x + y;
      case '-':
        return x - y;
      case '*':
        return x * y;
      default:
        if (y == T (0))
          throw std::domain_error ("division by zero");
        return x / y;
      }
  }
};

template <typename T>
std::shared_ptr<Expr<T>>
random_expr (int depth)
{
  if (depth == 0 || rnd () % 5 == 0)
    {
      if (rnd () % 2)
        return std::make_shared<Const<T>> (T (rnd () % 7));
      static const char *names[] = { "x", "y", "z" };
      return std::make_shared<Var<T>> (names[rnd () % 3]);
    }
  static const char ops[] = "+-*/";
  return std::make_shared<Bin<T>> (ops[rnd () % 4], random_expr<T> (depth - 1), random_expr<T> (depth - 1));
}

double
shapes_round (std::vector<std::unique_ptr<Shape>> &shapes)
{
  std::map<std::string, std::vector<double>> by_name;
  for (const auto &s : shapes)
    by_name[s->name ()].push_back (s->area ());
  double sum = 0;
  for (auto &entry : by_name)
    {
      auto &v = entry.second;
      std::sort (v.begin (), v.end (), [] (double a, double b) { return a > b; });
      sum += std::accumulate (v.begin (), v.begin () + std::min<size_t> (v.size (), 10), 0.0);
    }
  std::vector<const Shape *> order;
  order.reserve (shapes.size ());
  for (const auto &s : shapes)
    order.push_back (s.get ());
  std::stable_sort (order.begin (), order.end (),
                    [] (const Shape *a, const Shape *b) { return a->perimeter () < b->perimeter (); });
  std::unordered_map<long, int> buckets;
  for (const Shape *s : order)
    buckets[std::lround (s->perimeter ()) / 10]++;
  std::function<double (const Shape *)> weigh = [&buckets] (const Shape *s) {
    return s->area () / (1 + buckets[std::lround (s->perimeter ()) / 10]);
  };
  for (const Shape *s : order)
    sum += weigh (s);
  return sum;
}

double
exprs_round (const std::vector<std::shared_ptr<Expr<double>>> &exprs, int round)
{
  double sum = 0;
  int failed = 0;
  for (int i = 0; i < 50; i++)
    {
      std::map<std::string, double> env{ { "x", double (i % 5) }, { "y", double (round % 3) }, { "z", 2.0 } };
      for (const auto &e : exprs)
        try
          {
            sum += e->eval (env);
          }
        catch (const std::domain_error &)
          {
            failed++;
          }
    }
  return sum + failed;
}

} // namespace

int
main (int argc, char **argv)
{
  int rounds = argc > 1 ? std::atoi (argv[1]) : 40;
  std::vector<std::unique_ptr<Shape>> shapes;
  for (int i = 0; i < 20000; i++)
    shapes.push_back (make_shape ());
  std::vector<std::shared_ptr<Expr<double>>> exprs;
  for (int i = 0; i < 60; i++)
    exprs.push_back (random_expr<double> (8));
  double sum = 0;
  for (int r = 0; r < rounds; r++)
    {
      sum += shapes_round (shapes);
      sum += exprs_round (exprs, r);
      std::rotate (shapes.begin (), shapes.begin () + 1, shapes.end ());
    }
  std::printf ("checksum %.6g\n", sum);
  return 0;
}
