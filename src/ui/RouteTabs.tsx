import { Tabs } from '@mantine/core';
import { useLocation, useNavigate } from '@tanstack/react-router';

export interface RouteTab<V extends string> {
  value: V;
  label: string;
}

/** The tab the address names under `basePath` (its next segment), or the first tab. */
export function routeTabOf<V extends string>(tabs: readonly RouteTab<V>[], basePath: string, pathname: string): V {
  const segment = pathname.slice(basePath.length + 1).split('/')[0];
  return (tabs.find((tab) => tab.value === segment) ?? tabs[0]!).value;
}

/** Tabs each of which is a route of its own, `{basePath}/{value}`: choosing one navigates there. */
export function RouteTabs<V extends string>({ tabs, basePath }: { tabs: readonly RouteTab<V>[]; basePath: string }) {
  const pathname = useLocation({ select: (location) => location.pathname });
  const navigate = useNavigate();
  const current = routeTabOf(tabs, basePath, pathname);
  return (
    <Tabs
      value={current}
      mb="lg"
      onChange={(value) => {
        const tab = tabs.find((candidate) => candidate.value === value);
        if (tab && tab.value !== current) void navigate({ to: `${basePath}/${tab.value}` });
      }}
    >
      <Tabs.List>
        {tabs.map((tab) => (
          <Tabs.Tab key={tab.value} value={tab.value}>
            {tab.label}
          </Tabs.Tab>
        ))}
      </Tabs.List>
    </Tabs>
  );
}
