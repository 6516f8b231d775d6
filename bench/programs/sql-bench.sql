-- sql-bench.sql — what bench/amon-overhead.sh has SQLite's shell run: a
-- small order database built, indexed, joined, grouped, updated and
-- queried, in memory (no I/O in the times).
PRAGMA journal_mode = OFF;
CREATE TABLE customer (id INTEGER PRIMARY KEY, name TEXT, city TEXT, balance REAL);
CREATE TABLE orders (id INTEGER PRIMARY KEY, customer INTEGER, day INTEGER, amount REAL, note TEXT);
WITH RECURSIVE n (i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 20000)
  INSERT INTO customer SELECT i, 'customer ' || i, 'city ' || (i % 97), (i * 7919) % 10007 / 3.0 FROM n;
WITH RECURSIVE n (i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 150000)
  INSERT INTO orders SELECT i, (i * 48271) % 20000 + 1, i % 365, ((i * 16807) % 100000) / 100.0,
    printf ('order %d of customer %d', i, (i * 48271) % 20000 + 1) FROM n;
CREATE INDEX orders_customer ON orders (customer);
CREATE INDEX orders_day ON orders (day, amount);
SELECT city, count(*), round(sum(amount), 2) FROM customer JOIN orders ON orders.customer = customer.id
  GROUP BY city ORDER BY 3 DESC LIMIT 3;
SELECT day, max(amount) FROM orders GROUP BY day HAVING count(*) > 10 ORDER BY day LIMIT 3;
UPDATE customer SET balance = balance + (SELECT coalesce(sum(amount), 0) FROM orders WHERE orders.customer = customer.id)
  WHERE id % 3 = 0;
SELECT count(*) FROM orders WHERE note LIKE '%7 of customer 1%';
DELETE FROM orders WHERE amount < 100;
SELECT name, round(balance, 2) FROM customer WHERE balance > (SELECT avg(balance) FROM customer)
  ORDER BY balance DESC, name LIMIT 3;
SELECT count(*) FROM orders AS a WHERE EXISTS
  (SELECT 1 FROM orders AS b WHERE b.customer = a.customer AND b.day = a.day + 1);
