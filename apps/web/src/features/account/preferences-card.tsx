import { useId, useState } from 'react';
import { toast } from 'sonner';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../components/ui/card.tsx';
import { Label } from '../../components/ui/label.tsx';
import { Switch } from '../../components/ui/switch.tsx';

/** The email-notification toggle: a local simulation (SPEC section 7). */
export function PreferencesCard() {
  const id = useId();
  const [isOn, setOn] = useState(true);
  return (
    <Card>
      <CardHeader>
        <CardTitle>Preferences</CardTitle>
        <CardDescription>How we keep in touch.</CardDescription>
      </CardHeader>
      <CardContent>
        <div className="flex items-center justify-between gap-4">
          <div>
            <Label htmlFor={id}>Email notifications</Label>
            <p className="text-sm text-gray-500">Low-traffic warnings, receipts and product news.</p>
          </div>
          <Switch
            id={id}
            checked={isOn}
            onCheckedChange={(checked) => {
              setOn(checked);
              toast.success(checked ? 'Email notifications on' : 'Email notifications off');
            }}
          />
        </div>
      </CardContent>
    </Card>
  );
}
