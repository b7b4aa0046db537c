import express from 'express';

// A small JSON API for the speed benchmark (bench/serve.ts): no middleware but the JSON body
// parser, so after the plugins stage its routes run no Express code.
const products = Array.from({ length: 20 }, (_, i) => ({ id: String(i + 1), name: `product ${i + 1}`, priceCents: 100 * (i + 1), tags: ['a', 'b'] }));

const app = express();
app.disable('x-powered-by');
app.use(express.json({ limit: '10kb' }));

app.get('/health', (req, res) => {
  res.json({ status: 'ok' });
});

app.get('/products', (req, res) => {
  res.json({ count: products.length, products });
});

app.get('/products/:id', (req, res) => {
  const product = products.find((p) => p.id === req.params.id);
  if (!product) return res.status(404).json({ error: 'no such product' });
  res.json(product);
});

app.post('/products', (req, res) => {
  res.status(201).json({ id: String(products.length + 1), ...req.body });
});

export default app;
