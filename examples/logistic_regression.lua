--[[ Logistic regression by gradient descent with explicit gradients, on every available
backend, with Ember's Lua binding.

  LUA_PATH=<prefix>/share/lua/5.4/?.lua LUA_CPATH=<prefix>/lib/lua/5.4/?.so lua5.4 examples/logistic_regression.lua

A synthetic, linearly separable-ish problem: X ~ N(0, 1) of shape (n, d), labels
y = [X w_true + b_true + noise > 0]. The model p = sigmoid(X w + b) is fitted by full-batch
gradient descent on the mean binary cross-entropy, whose gradients are written out:
  dL/dw = X^T (p - y) / n,   dL/db = mean(p - y).
Prints the loss every few steps, the final accuracy and the wall time per backend.
EMBER_EXAMPLE_STEPS (default 300) and EMBER_EXAMPLE_N (default 4096) size the run. ]]
local ember = require("ember")

local steps = tonumber(os.getenv("EMBER_EXAMPLE_STEPS") or "") or 300
local n = tonumber(os.getenv("EMBER_EXAMPLE_N") or "") or 4096
local d, lr = 16, 0.5
n, steps = math.tointeger(n), math.tointeger(steps)

local function now() -- wall clock in seconds (os.clock is CPU time, wrong for threaded backends)
  local p = io.popen("date +%s.%N 2>/dev/null")
  local t = p and tonumber(p:read("l") or "")
  if p then p:close() end
  return t or os.clock()
end

-- The data, made once on the reference backend (every backend gets the same problem).
local X0, y0 = ember.using_backend("reference", function()
  ember.random.seed(1234)
  local X = ember.random.normal({ n, d }, 0.0, 1.0, "float32")
  local w_true = ember.random.normal({ d }, 0.0, 2.0, "float32")
  local noise = ember.random.normal({ n }, 0.0, 0.5, "float32")
  return X, ember.astype(ember.greater(X:matmul(w_true) + 0.3 + noise, 0), "float32")
end)

local function train(backend)
  return ember.using_backend(backend, function()
    local X, y = X0:to(), y0:to() -- onto this backend

    local w = ember.zeros({ d }, "float32")
    local b = 0.0
    local Xt = X.T
    ember.synchronize()
    local t0 = now()
    local loss
    for step = 1, steps do
      local p = ember.sigmoid(X:matmul(w) + b)
      local err = p - y
      local grad_w = Xt:matmul(err) / n
      local grad_b = err:mean():item()
      w = w - lr * grad_w
      b = b - lr * grad_b
      if step == 1 or step % math.max(1, steps // 5) == 0 or step == steps then
        -- mean binary cross-entropy, with p clipped away from 0 and 1
        local pc = ember.clip(p, 1e-7, 1 - 1e-7)
        loss = -(y * ember.log(pc) + (1 - y) * ember.log(1 - pc)):mean():item()
        print(string.format("  %-8s step %4d  loss %.5f", backend, step, loss))
      end
    end
    ember.synchronize()
    local elapsed = now() - t0
    local pred = ember.greater(ember.sigmoid(X:matmul(w) + b), 0.5)
    local acc = ember.mean(ember.equal(pred, ember.astype(y, "bool"))):item()
    return loss, acc, elapsed
  end)
end

print(string.format("logistic regression: n=%d d=%d steps=%d lr=%g (Ember %s)", n, d, steps, lr, ember.version()))
for _, backend in ipairs(ember.available_backends()) do
  local ok, loss, acc, elapsed = pcall(train, backend)
  if ok then
    print(string.format("%-8s loss %.5f  accuracy %.4f  time %.3f s (%.2f ms/step)", backend, loss, acc, elapsed,
      1000 * elapsed / steps))
  else
    print(string.format("%-8s failed: %s", backend, tostring(loss)))
  end
end
